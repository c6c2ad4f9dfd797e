/**
 * GET /api/pricing: every model an enabled channel serves, with its price from the options and its
 * catalogue metadata (description, icon, tags, vendor — new-api's `vendor_id` into `vendors`), and
 * the group ratios that apply to the caller. Anonymous visitors see the default group's ratio; a
 * logged-in user sees their own group and the groups they may use. A model whose metadata row is
 * disabled is not listed.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { User } from '../db/types.js';
import type { GatewayContext } from '../context.js';
import { requireUser } from '../auth/guard.js';
import { catalogueOf } from '../catalog/catalogue-cache.js';
import { describeModels } from '../catalog/catalogue.js';
import { usableGroups } from '../users/groups.js';
import type { UserGroups } from '../users/schemas.js';
import { pricingItems } from './items.js';
import { PricingAnswer, type PricingItem } from './schemas.js';

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
    const priced = pricingItems(ctx);
    const { info, vendors } = describeModels(
      await catalogueOf(ctx).snapshot(),
      priced.map((item) => item.model_name),
    );
    const data: PricingItem[] = [];
    for (const item of priced) {
      const meta = info.get(item.model_name);
      if (meta) data.push({ ...item, ...meta });
    }
    return {
      success: true,
      message: '',
      data,
      vendors,
      group_ratio: groupRatio,
      usable_group: usable,
    };
  });
}
