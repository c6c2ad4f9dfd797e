/** The rows of the public price list: every served model with its price from the options. */
import type { GatewayContext } from '../context.js';
import { lookupPrice } from '../billing/pricing.js';
import { QUOTA_TYPE_CALL, QUOTA_TYPE_SECOND, QUOTA_TYPE_TOKENS } from './schemas.js';

const DEFAULT_GROUP = 'default';

/** A price-list row before the model's catalogue metadata is added. */
export interface PricedModel {
  model_name: string;
  quota_type: number;
  model_ratio: number;
  completion_ratio: number;
  model_price: number;
  enable_groups: string[];
}

/** A video model's USD per second (before size multipliers), or null. */
function secondPrice(map: unknown, model: string): number | null {
  if (typeof map !== 'object' || map === null || !Object.hasOwn(map, model)) return null;
  const v = (map as Record<string, unknown>)[model];
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : null;
}

/**
 * Every model an enabled channel serves (enabled abilities, from the channel cache), with the
 * groups serving it. Admins may put a user in any group, so every group counts.
 */
export function pricingItems(ctx: Pick<GatewayContext, 'options' | 'channels'>): PricedModel[] {
  const groups = ctx.channels.groups();
  const byModel = new Map<string, string[]>();
  for (const group of groups) {
    for (const model of ctx.channels.models(group)) {
      const list = byModel.get(model) ?? [];
      list.push(group);
      byModel.set(model, list);
    }
  }
  const perSecond = ctx.options.json<unknown>('ModelSecondPrice');
  return [...byModel.keys()].sort().map((model) => {
    const second = secondPrice(perSecond, model);
    if (second !== null) {
      return {
        model_name: model,
        quota_type: QUOTA_TYPE_SECOND,
        model_ratio: 0,
        completion_ratio: 1,
        model_price: second,
        enable_groups: byModel.get(model) ?? [],
      };
    }
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
