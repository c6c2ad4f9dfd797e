import { lazy } from 'react';
import VpnKeyIcon from '@mui/icons-material/VpnKey';
import type { ResourceProps } from 'react-admin';

/** The token resource (`/token`); its screens load on first visit. */
const tokens = {
  list: lazy(() => import('./TokenList')),
  icon: VpnKeyIcon,
  hasCreate: true,
  hasEdit: true,
  recordRepresentation: 'name',
} satisfies Omit<ResourceProps, 'name'>;

export default tokens;
