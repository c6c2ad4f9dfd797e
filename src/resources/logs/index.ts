import { lazy } from 'react';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import type { ResourceProps } from 'react-admin';

/** The log resource (`/log`); its screen loads on first visit. */
const logs = {
  list: lazy(() => import('./LogList')),
  icon: ReceiptLongIcon,
} satisfies Omit<ResourceProps, 'name'>;

export default logs;
