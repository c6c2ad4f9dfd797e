import type { GatewayContext } from '../context.js';
import type { Db } from '../db/index.js';
import { nowSeconds } from '../db/index.js';
import { fail } from '../http/errors.js';
import { creditUser, rewardInviter } from '../billing/ledger.js';
import { logText, withText } from '../logs/messages.js';
import { recordLog } from '../logs/repository.js';
import { findLiveUserIdByAffCode } from '../users/identity-repository.js';
import { createUser, findUsername, isUsernameTaken } from '../users/repository.js';
import { isUniqueViolation } from '../db/errors.js';
import { consumeVerificationCode } from './codes.js';
import { emailRuleViolation, emailTaken, isValidEmail, normaliseEmail } from './email-rules.js';
import type { RegisterBody } from './schemas.js';
import { LOG_SYSTEM } from '../logs/types.js';

const USERNAME_MAX = 12;
const PASSWORD_MIN = 8;
const PASSWORD_MAX = 20;

/** Lengths in characters as a person counts them, not UTF-16 units. */
const charCount = (s: string) => [...s].length;

function validate(body: RegisterBody): { username: string; password: string } {
  const username = body.username.trim();
  const { password } = body;
  if (!username) throw fail('account.username_required');
  if (charCount(username) > USERNAME_MAX) throw fail('account.username_too_long', { max: USERNAME_MAX });
  if (/[\p{Cc}\s]/u.test(username)) throw fail('account.username_whitespace');
  if (charCount(password) < PASSWORD_MIN) throw fail('account.password_too_short', { min: PASSWORD_MIN });
  if (charCount(password) > PASSWORD_MAX) throw fail('account.password_too_long', { max: PASSWORD_MAX });
  if ((body.password2 ?? '') !== password) throw fail('account.passwords_differ');
  return { username, password };
}

async function findInviter(db: Db, affCode: string | undefined): Promise<number> {
  const code = affCode?.trim();
  if (!code) return 0;
  // An unknown code does not block registration: the link may simply be stale.
  return (await findLiveUserIdByAffCode(db, code)) ?? 0;
}

/**
 * Password registration: checks the switches, the input, the e-mail code, then creates the user
 * and pays the invitation rewards in one transaction.
 */
export async function registerUser(ctx: GatewayContext, body: RegisterBody): Promise<void> {
  const { db, options } = ctx;
  if (!options.bool('RegisterEnabled')) throw fail('account.registration_closed');
  if (!options.bool('PasswordRegisterEnabled')) throw fail('account.password_registration_closed');
  const { username, password } = validate(body);

  // Without verification an address is not kept: an unproven one would receive reset links.
  let email = '';
  if (options.bool('EmailVerificationEnabled')) {
    email = normaliseEmail(body.email ?? '');
    const code = body.verification_code?.trim() ?? '';
    if (!email || !code) throw fail('account.email_verification_required');
    if (!isValidEmail(email)) throw fail('account.email_invalid');
    // Checked again here: the rules may have changed since the code was sent.
    const refused = emailRuleViolation(options, email);
    if (refused) throw fail(refused);
  }
  if (await isUsernameTaken(db, username)) throw fail('account.username_taken');
  if (email) {
    if (await emailTaken(db, email)) throw fail('account.email_taken');
    // Used up last, once everything else passed, so a typo elsewhere does not cost the code.
    if (!(await consumeVerificationCode(ctx.kv, email, body.verification_code ?? ''))) throw fail('account.code_invalid');
  }

  try {
    await createAccount(ctx, { username, password, email, aff_code: body.aff_code });
  } catch (err) {
    // Two sign-ups racing for the same name: the unique index decides.
    if (isUniqueViolation(err)) throw fail('account.username_taken');
    throw err;
  }
}

export interface NewAccount {
  username: string;
  password: string;
  email: string;
  display_name?: string;
  /** The inviter's code; an unknown one is ignored. */
  aff_code?: string;
}

/**
 * Creates the user and pays the new-user and invitation rewards (with their system logs) in one
 * transaction. `inTransaction` runs inside it right after the insert (third-party sign-up binds
 * its provider id there). Returns the new id; database errors (a taken name) reach the caller.
 */
export async function createAccount(
  ctx: GatewayContext,
  account: NewAccount,
  inTransaction?: (trx: Db, userId: number) => Promise<void>,
): Promise<number> {
  const { db, options } = ctx;
  const { username, password, email } = account;
  const inviterId = await findInviter(db, account.aff_code);
  const quotaForNewUser = Math.max(0, options.number('QuotaForNewUser'));
  const quotaForInvitee = inviterId ? Math.max(0, options.number('QuotaForInvitee')) : 0;
  const quotaForInviter = inviterId ? Math.max(0, options.number('QuotaForInviter')) : 0;
  const now = nowSeconds();

  return db.transaction().execute(async (trx) => {
    const userId = await createUser(trx, ctx.dbKind, {
      username,
      password,
      email,
      inviter_id: inviterId,
      display_name: account.display_name,
    });
    await creditUser(trx, userId, quotaForNewUser + quotaForInvitee);
    await inTransaction?.(trx, userId);
    const logs: Array<{ user_id: number; username: string; quota: number; content: string; other: string }> = [];
    if (quotaForNewUser > 0) {
      logs.push({
        user_id: userId,
        username,
        quota: quotaForNewUser,
        ...withText(logText(options, 'signup_gift', { quota: quotaForNewUser })),
      });
    }
    if (quotaForInvitee > 0) {
      logs.push({
        user_id: userId,
        username,
        quota: quotaForInvitee,
        ...withText(logText(options, 'invitee_gift', { quota: quotaForInvitee })),
      });
    }
    if (inviterId) {
      if (!(await rewardInviter(trx, inviterId, quotaForInviter))) throw fail('account.inviter_missing');
      if (quotaForInviter > 0) {
        logs.push({
          user_id: inviterId,
          username: (await findUsername(trx, inviterId)) ?? '',
          quota: quotaForInviter,
          ...withText(logText(options, 'inviter_reward', { username, quota: quotaForInviter })),
        });
      }
    }
    for (const log of logs) await recordLog(trx, ctx.dbKind, { ...log, type: LOG_SYSTEM, created_at: now });
    return userId;
  });
}
