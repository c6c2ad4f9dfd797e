/**
 * Checking a person's second factor: a TOTP code (each 30-second step accepted once) or, where the
 * caller allows, one of their backup codes (each accepted once). A wrong code counts as a failed
 * login of the account (accounts/lockout.ts), so guessing codes locks the account like guessing
 * passwords does, on every gateway process; a locked account is refused before any check.
 */
import type { GatewayContext } from '../context.js';
import { fail } from '../http/errors.js';
import { accountKey, assertNotLocked, noteFailure } from '../accounts/lockout.js';
import { backupCodeHash, totpStep } from './totp.js';
import { findTwoFa, hasEnabledTwoFa, spendBackupCode, spendStep } from './twofa-repository.js';
import { countPasskeys } from './passkey-repository.js';

type Ctx = Pick<GatewayContext, 'config' | 'kv' | 'limiter' | 'db'>;

export type FactorUsed = 'totp' | 'backup';

export async function checkSecondFactor(
  ctx: Ctx,
  userId: number,
  code: string,
  { allowBackup }: { allowBackup: boolean },
): Promise<FactorUsed> {
  const account = accountKey({ id: userId }, '');
  await assertNotLocked(ctx, account);
  const twoFa = await findTwoFa(ctx.db, userId);
  if (!twoFa || twoFa.enabled !== 1) throw fail('twofa.not_enabled');
  const step = totpStep(twoFa.secret, code);
  if (step !== null) {
    if (await spendStep(ctx.db, userId, step)) return 'totp';
  } else if (allowBackup && (await spendBackupCode(ctx.db, userId, backupCodeHash(userId, code)))) {
    return 'backup';
  }
  await noteFailure(ctx, account);
  throw fail('twofa.code_invalid');
}

/** Whether the user has a second factor (TOTP or a passkey) to confirm sensitive actions with. */
export async function hasSecondFactor(ctx: Pick<GatewayContext, 'db'>, userId: number): Promise<boolean> {
  return (await hasEnabledTwoFa(ctx.db, userId)) || (await countPasskeys(ctx.db, userId)) > 0;
}
