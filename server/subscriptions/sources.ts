/**
 * Who pays a call, in the order the user's billing preference says: each active subscription (the
 * one ending soonest first) with something left this period, and/or the wallet. The relay tries
 * them in turn until one reservation is taken.
 */
import type { Payer } from '../billing/journal-ops.js';
import type { UserSubs } from './cache.js';

export function payersInOrder(payer: Payer, state: UserSubs, now: number): Payer[] {
  if (state.preference === 'wallet_only') return [payer];
  const subs = state.subs
    .filter((s) => s.endTime > now && s.quotaLeft > 0)
    .map((s): Payer => ({ ...payer, subscription: { id: s.id, period: s.period } }));
  switch (state.preference) {
    case 'subscription_only':
      return subs;
    case 'wallet_first':
      return [payer, ...subs];
    default:
      return [...subs, payer];
  }
}

/**
 * Whether this user's calls are drawn from a subscription before the wallet: then a reservation is
 * always taken (the wallet's large-balance shortcut says nothing of a subscription's period).
 */
export function subscriptionsFirst(state: UserSubs | undefined): boolean {
  return (
    state !== undefined &&
    (state.preference === 'subscription_first' || state.preference === 'subscription_only') &&
    state.subs.length > 0
  );
}
