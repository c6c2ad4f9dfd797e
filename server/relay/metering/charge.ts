/**
 * The money steps every relayed call shares (HTTP requests, realtime sessions and tasks): the
 * caller's price for a model, who pays, the hold taken before the upstream is asked, and what follows
 * a settlement.
 *
 * The guarantee: a served call is charged its full cost. A balance goes below zero only by what calls
 * already in flight used beyond their reservations, and a balance at or below zero refuses new calls
 * (a reservation needs the balance to cover it). The reservation is the prompt's estimate plus
 * `max_tokens`, or plus PreConsumedQuota tokens when the call sets no limit; callers with more than
 * TRUSTED_USD on the user and the token reserve nothing, so their calls do no database work before
 * the upstream answers.
 */
import type { GatewayContext } from '../../context.js';
import { lookupPrice, quotaFor, type Price } from '../../billing/pricing.js';
import type { Hold, HoldRecord } from '../../billing/holds.js';
import type { Payer } from '../../billing/journal-ops.js';
import { warnIfLowQuota } from '../../notify/quota-warning.js';
import { payersInOrder, subscriptionsFirst } from '../../subscriptions/sources.js';
import type { UserSubs } from '../../subscriptions/cache.js';
import { relayErrors } from '../errors.js';
import type { RelayCaller } from '../types.js';

/** Balances above this many USD (user, and the token unless unlimited) skip the reservation. */
export const TRUSTED_USD = 10;

/**
 * The caller's price for `model`; a model without one is refused unless unset prices are accepted
 * — as unknown when no channel of the caller's group serves it either.
 */
export function priceFor(ctx: GatewayContext, caller: RelayCaller, model: string): Price {
  const priced = lookupPrice(ctx.options, model, caller.group, caller.acceptUnsetPrice || ctx.options.bool('SelfUseModeEnabled'));
  if (priced.ok) return priced.price;
  const served = caller.pinnedChannelId !== null || ctx.channels.candidates(caller.group, model).length > 0;
  throw served ? relayErrors.priceNotSet(model) : relayErrors.unknownModel(model);
}

export function payerOf(caller: RelayCaller): Payer {
  return { userId: caller.userId, tokenId: caller.tokenId, unlimitedToken: caller.unlimitedToken };
}

/** Whether the caller's balances (as this process last saw them) are large enough to skip the reservation. */
export function isTrusted(ctx: GatewayContext, caller: RelayCaller): boolean {
  const line = TRUSTED_USD * ctx.options.number('QuotaPerUnit');
  if (subscriptionsFirst(ctx.subscriptions.peek(caller.userId))) return false;
  return caller.userQuotaHint > line && (caller.unlimitedToken || caller.tokenQuotaHint > line);
}

/** A call that costs nothing whatever it uses. */
export function isFree(price: Price): boolean {
  return price.groupRatio === 0 || (price.modelPrice !== null ? price.modelPrice === 0 : price.modelRatio === 0);
}

/**
 * What a call reserves: its prompt and its completion limit priced (PreConsumedQuota tokens when it
 * sets none), `times` over for calls priced per item. A priced call always reserves something, so an
 * empty balance is refused before the upstream is asked.
 */
export function reservationFor(ctx: GatewayContext, price: Price, promptTokens: number, maxTokens: number, times = 1): number {
  const completionTokens = maxTokens > 0 ? maxTokens : Math.max(0, ctx.options.number('PreConsumedQuota'));
  const quota = quotaFor(price, { promptTokens, completionTokens }, ctx.options.number('QuotaPerUnit')) * times;
  return quota === 0 && !isFree(price) ? 1 : quota;
}

/**
 * Takes the call's hold (`amount` reserved) from the first source, in the user's billing preference,
 * that covers it (a subscription's period or the wallet), or refuses with the quota error of
 * whichever balance fell short. Opened at once, without a promise, when nothing is to be reserved (a
 * large balance) and the caps and subscriptions are known (nearly always).
 */
export function holdFor(ctx: GatewayContext, payer: Payer, amount: number, record: () => HoldRecord): Hold | Promise<Hold> {
  const capped = ctx.caps.check(payer.userId, payer.tokenId);
  const known = capped ? undefined : ctx.subscriptions.current(payer.userId);
  const first = known && amount <= 0 ? sourcesOf(ctx, payer, known)[0] : undefined;
  return first ? ctx.holds.open(first, record) : reserveFor(ctx, payer, amount, record, capped, known);
}

/** The payers a call may draw on, in the user's billing preference. */
function sourcesOf(ctx: GatewayContext, payer: Payer, state: UserSubs): Payer[] {
  return state.subs.length === 0 && state.preference !== 'subscription_only'
    ? [payer]
    : payersInOrder(payer, state, ctx.clock.now());
}

async function reserveFor(
  ctx: GatewayContext,
  payer: Payer,
  amount: number,
  record: () => HoldRecord,
  capped: Promise<void> | undefined,
  known: UserSubs | undefined,
): Promise<Hold> {
  if (capped) await capped;
  const payers = sourcesOf(ctx, payer, known ?? (await ctx.subscriptions.get(payer.userId)));
  for (let i = 0; i < payers.length; i++) {
    const candidate = payers[i]!;
    const taken = await ctx.holds.take(candidate, amount, record);
    if (taken.ok) return taken.hold;
    if (taken.reason === 'token_quota') throw relayErrors.tokenQuota();
    // A subscription that fell short was read stale; if its period was reset meanwhile (by another
    // call or process), the new period is tried next.
    if (taken.reason === 'subscription_quota' && candidate.subscription) {
      const renewed = await ctx.subscriptions.renewed(payer.userId, candidate.subscription, ctx.clock.now());
      if (renewed) payers.splice(i + 1, 0, { ...payer, subscription: renewed });
    }
  }
  throw relayErrors.userQuota();
}

/** After a settlement: the hourly totals, and a low-balance warning when one is due (in the background). */
export function afterSettle(
  ctx: GatewayContext,
  s: {
    userId: number;
    tokenId?: number;
    username: string;
    channelId: number;
    model: string;
    quota: number;
    tokens: number;
    /** Input tokens and the part read from the prompt cache (channel statistics' hit rate). */
    promptTokens?: number;
    cachedTokens?: number;
  },
): void {
  ctx.caps.record(s.userId, s.tokenId ?? 0, s.quota);
  ctx.totals.add({
    userId: s.userId,
    username: s.username,
    channelId: s.channelId,
    model: s.model,
    quota: s.quota,
    tokens: s.tokens,
    promptTokens: s.promptTokens,
    cachedTokens: s.cachedTokens,
  });
  warnIfLowQuota(ctx, s.userId);
}
