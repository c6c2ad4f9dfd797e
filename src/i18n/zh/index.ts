import { ra } from './ra';
import { app } from './app';
import { pages } from './pages';
import { users } from './users';
import { tokens } from './tokens';
import { channels } from './channels';
import { logs } from './logs';
import { midjourneys } from './midjourneys';
import { tasks } from './tasks';
import { redemptions } from './redemptions';
import { audits } from './audits';
import { models } from './models';
import { vendors } from './vendors';
import { topupOrders } from './topup_orders';
import { settings } from './settings';
import { settings_system } from './settings_system';
import { settings_operation } from './settings_operation';
import { wallet } from './wallet';
import { subscriptions } from './subscriptions';
import { subscriptionPlans } from './subscription_plans';
import { pricing } from './pricing';
import { playground } from './playground';
import { dashboard } from './dashboard';
import { server_errors } from './server_errors';
import { security } from './security';

export const zh = {
  ...ra,
  app,
  pages,
  wallet,
  subscriptions,
  pricing,
  playground,
  dashboard,
  settings,
  settings_system,
  settings_operation,
  server_errors,
  security,
  // Keyed by resource name, so react-admin finds `resources.<name>.name` and `.fields.*` itself.
  resources: {
    user: users,
    token: tokens,
    channel: channels,
    log: logs,
    midjourney: midjourneys,
    task: tasks,
    redemption: redemptions,
    audit: audits,
    model: models,
    vendor: vendors,
    topup_order: topupOrders,
    subscription_plan: subscriptionPlans,
  },
};
