import type { GatewayContext } from '../context.js';
import { fail } from '../http/errors.js';
import { hashPassword } from '../auth/password.js';
import { findLiveUserIdByEmail } from '../users/identity-repository.js';
import { endSessions, updateUser } from '../users/repository.js';
import { RESET_MINUTES, consumeResetToken, issueResetToken, randomPassword } from './codes.js';
import { isValidEmail, normaliseEmail } from './email-rules.js';
import { resetMail } from './mails.js';

/**
 * GET /api/reset_password: mails a one-time link to the console's reset page. `origin` is only a
 * fallback: the request's Host header is the caller's to choose, so a configured ServerAddress
 * is what keeps the link pointing at this site.
 */
export async function sendResetLink(ctx: GatewayContext, rawEmail: string, origin: string): Promise<void> {
  const email = normaliseEmail(rawEmail);
  if (!isValidEmail(email)) throw fail('account.email_invalid');
  if ((await findLiveUserIdByEmail(ctx.db, email)) === undefined) throw fail('account.email_not_registered');
  const token = await issueResetToken(ctx.kv, email);
  const base = ctx.options.string('ServerAddress') || origin;
  const link = `${base}/user/reset?email=${encodeURIComponent(email)}&token=${token}`;
  const mail = resetMail(ctx.options.string('SystemName'), link, RESET_MINUTES);
  await ctx.mailer.send(email, mail.subject, mail.html);
}

/** POST /api/user/reset: uses up the link's token and returns a new random password. */
export async function resetPassword(ctx: GatewayContext, rawEmail: string, token: string): Promise<string> {
  const email = normaliseEmail(rawEmail);
  if (!email || !token || !(await consumeResetToken(ctx.kv, email, token))) throw fail('account.reset_link_invalid');
  const userId = await findLiveUserIdByEmail(ctx.db, email);
  if (userId === undefined) throw fail('account.reset_link_invalid');
  const password = randomPassword();
  const hash = await hashPassword(password);
  await ctx.db.transaction().execute(async (trx) => {
    await updateUser(trx, userId, { password: hash });
    await endSessions(trx, userId);
  });
  return password;
}
