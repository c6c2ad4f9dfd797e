import CardMembershipIcon from '@mui/icons-material/CardMembership';
import { ROLE_ADMIN } from '../../authProvider/roles';
import { defineResource } from '../schema/definition';
import type { SubscriptionPlanRecord } from './types';

/** Subscription plans (`/subscription_plan`), admins only: what users can buy or be bound to. */
export default defineResource<SubscriptionPlanRecord, 'subscription_plan'>({
  name: 'subscription_plan',
  endpoints: { base: '/api/subscription/admin/plans/', wrap: 'plan' },
  access: { '*': ROLE_ADMIN },
  icon: CardMembershipIcon,
  menu: [{ section: 'admin_section', order: 66 }],
  schema: () => import('./schema'),
  recordRepresentation: 'title',
});
