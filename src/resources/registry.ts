/**
 * Every console resource, once. This list drives the `<Resource>` routes (App.tsx), the
 * dataProvider's endpoints, the sidebar (layout/menu.ts) and canAccess. A new resource is its
 * folder (`index.ts` default-exporting `defineResource({...})`) plus one line here.
 */
import type { RaRecord } from 'react-admin';
import type { ResourceDefinition } from './schema/definition';
import user from './user';
import token from './token';
import channel from './channel';
import log from './log';
import midjourney from './midjourney';
import task from './task';
import redemption from './redemption';
import audit from './audit';
import model from './model';
import vendor from './vendor';
import topup_order from './topup_order';
import subscription_plan from './subscription_plan';

/** Keyed by name: the compiler refuses an entry whose key is not its resource's name. */
type Registry<T> = { [K in keyof T]: ResourceDefinition<RaRecord, K & string> };

const registry = {
  user,
  token,
  channel,
  log,
  midjourney,
  task,
  redemption,
  topup_order,
  subscription_plan,
  model,
  vendor,
  audit,
};
const named: Registry<typeof registry> = registry;

export const resources: readonly ResourceDefinition[] = Object.values(named);
