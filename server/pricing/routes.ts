/**
 * GET /api/pricing: every model an enabled channel serves, with its price from the options, and
 * the group ratios that apply to the caller. Anonymous visitors see the default group's ratio; a
 * logged-in user sees their own group and the groups they may use.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { User } from '../db/types.js';
import type { GatewayContext } from '../context.js';
import { requireUser } from '../auth/guard.js';
import { lookupPrice } from '../billing/pricing.js';
import { usableGroups } from '../users/groups.js';
import type { UserGroups } from '../users/schemas.js';
import { PricingAnswer, QUOTA_TYPE_CALL, QUOTA_TYPE_TOKENS, type PricingItem } from './schemas.js';

const DEFAULT_GROUP = 'default';

/** The console user when the request carries a valid session (or access token); null otherwise. */
async function optionalUser(request: FastifyRequest): Promise<User | null> {
  try {
    await requireUser(request);
    return request.user;
  } catch {
    return null;
  }
}

/**
 * The pricing rows: every model an enabled channel serves (enabled abilities, from the channel
 * cache), with the groups serving it. Admins may put a user in any group, so every group counts.
 */
export function pricingItems(ctx: Pick<GatewayContext, 'options' | 'channels'>): PricingItem[] {
  const groups = ctx.channels.groups();
  const byModel = new Map<string, string[]>();
  for (const group of groups) {
    for (const model of ctx.channels.models(group)) {
      const list = byModel.get(model) ?? [];
      list.push(group);
      byModel.set(model, list);
    }
  }
  return [...byModel.keys()].sort().map((model) => {
    // The group ratio is not part of an item; any group gives the same model figures. With unset
    // prices accepted the lookup always answers; a model without price or ratio reads as ratio 0.
    const found = lookupPrice(ctx.options, model, DEFAULT_GROUP, true);
    const price = found.ok ? found.price : { modelPrice: null, modelRatio: 0, completionRatio: 1, unset: true };
    const fixed = price.modelPrice;
    return {
      model_name: model,
      quota_type: fixed !== null ? QUOTA_TYPE_CALL : QUOTA_TYPE_TOKENS,
      model_ratio: fixed !== null || price.unset ? 0 : price.modelRatio,
      completion_ratio: price.completionRatio,
      model_price: fixed ?? 0,
      enable_groups: byModel.get(model) ?? [],
    };
  });
}

/** The groups the caller sees: the user's usable groups, or the default group for anonymous visitors. */
export function callerGroups(ctx: Pick<GatewayContext, 'options'>, user: User | null): UserGroups {
  if (user) return usableGroups(ctx.options, user.group);
  const all = usableGroups(ctx.options, DEFAULT_GROUP);
  return { [DEFAULT_GROUP]: all[DEFAULT_GROUP] ?? { desc: DEFAULT_GROUP, ratio: 1 } };
}

export default async function pricingRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const ctx: GatewayContext = app.ctx;

  app.get('/api/pricing', { schema: { response: { 200: PricingAnswer } } }, async (request) => {
    const user = await optionalUser(request);
    const usable = callerGroups(ctx, user);
    const groupRatio: Record<string, number> = {};
    for (const [group, { ratio }] of Object.entries(usable)) groupRatio[group] = ratio;
    return {
      success: true,
      message: '',
      data: pricingItems(ctx),
      group_ratio: groupRatio,
      usable_group: usable,
    };
  });
}
