import HubIcon from '@mui/icons-material/Hub';
import type { ResourceProps } from 'react-admin';

/** The channel resource (`/channel`); its screens load on first visit. */
const channels = {
  icon: HubIcon,
} satisfies Omit<ResourceProps, 'name'>;

export default channels;
