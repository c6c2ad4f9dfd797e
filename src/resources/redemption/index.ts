import { lazy } from 'react';
import RedeemIcon from '@mui/icons-material/Redeem';
import type { ResourceProps } from 'react-admin';

/** Redemption codes (/redemption); its screens load on first visit. */
const redemptions = {
  list: lazy(() => import('./RedemptionList')),
  icon: RedeemIcon,
  hasCreate: true,
  hasEdit: true,
  recordRepresentation: 'name',
} satisfies Omit<ResourceProps, 'name'>;

export default redemptions;
