/**
 * The money steps every relayed call shares (HTTP requests and realtime sessions alike): the
 * caller's price for a model, who pays, and settling a pre-charge against the actual cost.
 */
import type { GatewayContext } from '../context.js';
import { lookupPrice, type Price } from '../billing/pricing.js';
import { credit, debitUpTo, type Payer } from '../billing/ledger.js';
import { relayErrors } from './errors.js';
import { warnIfLowQuota } from '../notify/quota-warning.js';
import type { RelayCaller } from './pipeline.js';

/** The caller's price for `model`; a model without one is refused unless unset prices are accepted. */
export function priceFor(ctx: GatewayContext, caller: RelayCaller, model: string): Price {
  const priced = lookupPrice(ctx.options, model, caller.group, caller.acceptUnsetPrice || ctx.options.bool('SelfUseModeEnabled'));
  if (!priced.ok) throw relayErrors.priceNotSet(model);
  return priced.price;
}

export function payerOf(caller: RelayCaller): Payer {
  return { userId: caller.userId, tokenId: caller.tokenId, unlimitedToken: caller.unlimitedToken };
}

/**
 * Turns a pre-charge of `held` into the actual cost: debits the rest (as far as the balances go)
 * or refunds the excess, then checks whether the user is due a low-quota warning (in the
 * background). Returns what was charged in all, which is what the log records.
 */
export async function settle(ctx: GatewayContext, payer: Payer, held: number, actual: number): Promise<number> {
  let charged = held;
  if (actual > held) charged += await debitUpTo(ctx.db, payer, actual - held);
  else if (actual < held) {
    await credit(ctx.db, payer, held - actual);
    charged = actual;
  }
  ctx.users.spent(payer.userId, charged);
  warnIfLowQuota(ctx, payer.userId);
  return charged;
}
