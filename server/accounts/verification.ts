import type { GatewayContext } from '../context.js';
import { fail } from '../http/errors.js';
import { VERIFICATION_MINUTES, issueVerificationCode } from './codes.js';
import { emailRuleViolation, emailTaken, isValidEmail, normaliseEmail } from './email-rules.js';
import { verificationMail } from './mails.js';

/**
 * GET /api/verification: mails a one-time code to an address that the admin's rules allow and no
 * user holds yet (registration and e-mail binding both use it).
 */
export async function sendVerificationCode(ctx: GatewayContext, rawEmail: string): Promise<void> {
  const email = normaliseEmail(rawEmail);
  if (!isValidEmail(email)) throw fail('account.email_invalid');
  const refused = emailRuleViolation(ctx.options, email);
  if (refused) throw fail(refused);
  if (await emailTaken(ctx.db, email)) throw fail('account.email_taken');
  const code = await issueVerificationCode(ctx.kv, email);
  const mail = verificationMail(ctx.options.string('SystemName'), code, VERIFICATION_MINUTES);
  await ctx.mailer.send(email, mail.subject, mail.html);
}
