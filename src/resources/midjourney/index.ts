import { lazy } from 'react';
import PaletteIcon from '@mui/icons-material/Palette';
import type { ResourceProps } from 'react-admin';

/** Drawing logs (/midjourney); its screens load on first visit. */
const midjourneys = {
  list: lazy(() => import('./MidjourneyList')),
  icon: PaletteIcon,
} satisfies Omit<ResourceProps, 'name'>;

export default midjourneys;
