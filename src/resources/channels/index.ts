import { lazy } from 'react';
import HubIcon from '@mui/icons-material/Hub';
import type { ResourceProps } from 'react-admin';

/**
 * The channel resource (`/channel`); its screens load on first visit. The add (/channel/add) and
 * edit (/channel/edit/{id}) drawers open over the list, which matches every /channel/* path.
 */
const channels = {
  list: lazy(() => import('./ChannelList')),
  icon: HubIcon,
  hasCreate: true,
  hasEdit: true,
  recordRepresentation: 'name',
} satisfies Omit<ResourceProps, 'name'>;

export default channels;
