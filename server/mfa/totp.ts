/**
 * TOTP (RFC 6238 through the otpauth library: SHA-1, 6 digits, 30-second steps, what every
 * authenticator app reads from an otpauth:// URI) and one-time backup codes. A code is accepted for
 * the step before, the current and the next one (clock drift), and each step at most once: the
 * caller stores the accepted step and refuses codes of that step or earlier.
 */
import { createHash, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

const PERIOD = 30;
const DIGITS = 6;
/** Steps either side of now whose codes are still accepted. */
const WINDOW = 1;

export const BACKUP_CODE_COUNT = 10;
/** Crockford-style base32 without I, L, O, U: nothing to misread when typed from paper. */
const BACKUP_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** 12 characters of 32: 60 bits each, so a stored SHA-256 digest cannot be reversed by trying. */
const BACKUP_GROUPS = 3;
const BACKUP_GROUP_LENGTH = 4;

/** A fresh 160-bit secret in base32, the form authenticator apps take. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(secret: string, issuer: string, label: string): TOTP {
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: DIGITS, period: PERIOD, secret: Secret.fromBase32(secret) });
}

/** The otpauth:// URI an authenticator app scans (issuer: the site's name; label: the user's). */
export function totpUri(secret: string, issuer: string, label: string): string {
  return totp(secret, issuer, label).toString();
}

/** A code as people type it: digits only once spaces are dropped, or null when it cannot be a TOTP code. */
export function totpDigits(code: string): string | null {
  const digits = code.replace(/\s+/g, '');
  return new RegExp(`^\\d{${DIGITS}}$`).test(digits) ? digits : null;
}

/** The time step the code belongs to, when it is valid now (within the window); otherwise null. */
export function totpStep(secret: string, code: string, now = Date.now()): number | null {
  const digits = totpDigits(code);
  if (digits === null) return null;
  const delta = totp(secret, '', '').validate({ token: digits, timestamp: now, window: WINDOW });
  if (delta === null) return null;
  return TOTP.counter({ period: PERIOD, timestamp: now }) + delta;
}

/** Fresh backup codes, shown once: `XXXX-XXXX-XXXX`. */
export function newBackupCodes(): string[] {
  return Array.from({ length: BACKUP_CODE_COUNT }, () =>
    Array.from({ length: BACKUP_GROUPS }, () =>
      Array.from({ length: BACKUP_GROUP_LENGTH }, () => BACKUP_ALPHABET[randomInt(BACKUP_ALPHABET.length)]).join(''),
    ).join('-'),
  );
}

/**
 * The stored form of a backup code: a digest of the user and the code with case, dashes and spaces
 * dropped (a code typed as `abcd efgh jkmn` is the same code), so the table never holds one.
 */
export function backupCodeHash(userId: number, code: string): string {
  const normalized = code.toUpperCase().replace(/[\s-]+/g, '');
  return createHash('sha256').update(`${userId}:${normalized}`).digest('hex');
}
