import VpnKeyIcon from '@mui/icons-material/VpnKey';
import type { ResourceProps } from 'react-admin';

/** The token resource (`/token`); its screens load on first visit. */
const tokens = {
  icon: VpnKeyIcon,
} satisfies Omit<ResourceProps, 'name'>;

export default tokens;
