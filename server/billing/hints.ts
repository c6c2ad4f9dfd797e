/**
 * Keeps the caches' balance hints (which decide whether a call may skip its reservation) in step with
 * what the journal's batches left. A balance that falls to the trusted line or below is announced on
 * the bus, so every process drops its hint and reloads it: no process keeps serving unreserved calls
 * on a stale picture of a balance that is running out.
 */
import type { GatewayContext } from '../context.js';
import { publishUserChange } from '../users/user-cache.js';
import { publishTokenChange } from '../tokens/cache.js';
import type { Balances } from './journal-ops.js';

type HintParts = Pick<GatewayContext, 'users' | 'tokens' | 'bus' | 'options'>;

export function balanceHints(ctx: HintParts, trustedUsd: number): (balances: Balances) => void {
  return ({ users, tokens }) => {
    const line = trustedUsd * ctx.options.number('QuotaPerUnit');
    for (const [id, quota] of users) {
      const before = ctx.users.setBalance(id, quota);
      if (before !== undefined && before > line && quota <= line) publishUserChange(ctx.bus, id);
    }
    for (const [id, remain] of tokens) {
      const changed = ctx.tokens.setRemain(id, remain);
      if (changed && ((changed.before > line && remain <= line) || (changed.before > 0 && remain <= 0))) {
        publishTokenChange(ctx.bus, changed.key);
      }
    }
  };
}
