/**
 * What a video costs: the model's USD per second (ModelSecondPrice) × the seconds × the size's
 * multiplier (VideoResolutionRatio: `model@size` first, then `size`, else 1) × the group ratio; a
 * video model with only a fixed ModelPrice costs that per video whatever its length. The charge on
 * submit is for the seconds asked; the task settles on the seconds the vendor reports.
 */
import type { GatewayContext } from '../../context.js';
import { lookupPrice, quotaFor, type Price } from '../../billing/pricing.js';
import { relayErrors } from '../../relay/errors.js';
import type { Caller } from '../../relay/entry/identify-caller.js';
import { tokenCaller } from '../../relay/entry/read-request.js';
import { priceFor } from '../../relay/metering/charge.js';

export interface VideoPrice {
  /** USD per second, or null when priced per video. */
  perSecond: number | null;
  resolutionRatio: number;
  groupRatio: number;
  /** The per-video price of a model priced that way. */
  fixed: Price | null;
}

function entry(map: unknown, name: string): number | undefined {
  if (typeof map !== 'object' || map === null || !Object.hasOwn(map, name)) return undefined;
  const v = (map as Record<string, unknown>)[name];
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
}

export function videoPrice(ctx: GatewayContext, caller: Caller, model: string, size: string): VideoPrice {
  const perSecond = entry(ctx.options.json<unknown>('ModelSecondPrice'), model);
  if (perSecond === undefined) {
    const fixed = priceFor(ctx, tokenCaller(caller), model);
    // Tokens mean nothing for a video: only a fixed price can bill one.
    if (fixed.modelPrice === null) throw relayErrors.priceNotSet(model);
    return { perSecond: null, resolutionRatio: 1, groupRatio: fixed.groupRatio, fixed };
  }
  const ratios = ctx.options.json<unknown>('VideoResolutionRatio');
  const looked = lookupPrice(ctx.options, model, caller.group, true);
  return {
    perSecond,
    resolutionRatio: entry(ratios, `${model}@${size}`) ?? entry(ratios, size) ?? 1,
    groupRatio: looked.ok ? looked.price.groupRatio : 1,
    fixed: null,
  };
}

/** The price of `seconds` of video as the billing code takes it (a fixed USD amount). */
export function priceOfSeconds(p: VideoPrice, seconds: number): Price {
  if (p.fixed) return p.fixed;
  return {
    modelPrice: p.perSecond! * seconds * p.resolutionRatio,
    modelRatio: 0,
    completionRatio: 1,
    cacheRatio: 1,
    cacheWriteRatio: 1,
    groupRatio: p.groupRatio,
    unset: false,
  };
}

export function quotaOfSeconds(ctx: GatewayContext, p: VideoPrice, seconds: number): number {
  return quotaFor(priceOfSeconds(p, seconds), { promptTokens: 0, completionTokens: 0 }, ctx.options.number('QuotaPerUnit'));
}
