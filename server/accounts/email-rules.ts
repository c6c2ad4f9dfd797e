import type { Db } from '../db/index.js';
import type { RefusalCode } from '../http/refusals.js';
import type { OptionStore } from '../options/store.js';
import { findLiveUserIdByEmail } from '../users/identity-repository.js';

/** The users.email column's width. */
const MAX_EMAIL_LENGTH = 128;
/** Providers that ignore dots in the local part, so `a.b@` and `ab@` reach the same inbox. */
const DOT_BLIND_DOMAINS = new Set(['gmail.com', 'googlemail.com']);
// Deliberately plain: one @, no spaces, a dotted domain. Real validation is the mail arriving.
const EMAIL_PATTERN = /^[^\s@"<>()[\]\\,;:]+@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;

/** Addresses are compared and stored trimmed and lower-cased. */
export function normaliseEmail(input: string): string {
  return input.trim().toLowerCase();
}

export function isValidEmail(email: string): boolean {
  return email.length <= MAX_EMAIL_LENGTH && EMAIL_PATTERN.test(email);
}

/** The admin's domain whitelist and alias rules; returns the refusal's code, or null. */
export function emailRuleViolation(options: OptionStore, email: string): RefusalCode | null {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (options.bool('EmailDomainRestrictionEnabled')) {
    const allowed = options
      .string('EmailDomainWhitelist')
      .split(',')
      .map((d) => d.trim().toLowerCase())
      .filter(Boolean);
    if (!allowed.includes(domain)) return 'account.email_domain_not_allowed';
  }
  if (options.bool('EmailAliasRestrictionEnabled')) {
    if (local.includes('+') || (DOT_BLIND_DOMAINS.has(domain) && local.includes('.'))) {
      return 'account.email_alias_not_allowed';
    }
  }
  return null;
}

/** Whether a live (not deregistered) user already holds the address. */
export async function emailTaken(db: Db, email: string): Promise<boolean> {
  return (await findLiveUserIdByEmail(db, email)) !== undefined;
}
