import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import type { ResourceProps } from 'react-admin';

/** The log resource (`/log`); its screens load on first visit. */
const logs = {
  icon: ReceiptLongIcon,
} satisfies Omit<ResourceProps, 'name'>;

export default logs;
