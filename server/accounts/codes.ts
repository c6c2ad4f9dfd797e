import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { KvStore } from '../cache/kv.js';

/** How long an e-mailed verification code stays valid. */
export const VERIFICATION_MINUTES = 10;
/** How long a password-reset link stays valid. */
export const RESET_MINUTES = 15;
/** Wrong guesses after which a verification code is void (the critical rate limit also applies). */
const MAX_CODE_FAILURES = 5;

const CODE_LENGTH = 6;
// No 0/O or 1/I/L: people copy these codes by eye.
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const PASSWORD_LENGTH = 12;
const PASSWORD_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';

function randomString(alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function randomPassword(): string {
  return randomString(PASSWORD_ALPHABET, PASSWORD_LENGTH);
}

interface StoredCode {
  code: string;
  failures: number;
  expiresAt: number;
}

const verificationKey = (email: string) => `verification:${email}`;
const resetKey = (email: string) => `reset:${email}`;

/** A fresh code for the address, replacing any earlier one. */
export async function issueVerificationCode(kv: KvStore, email: string): Promise<string> {
  const code = randomString(CODE_ALPHABET, CODE_LENGTH);
  const ttl = VERIFICATION_MINUTES * 60;
  const stored: StoredCode = { code, failures: 0, expiresAt: Date.now() + ttl * 1000 };
  await kv.set(verificationKey(email), JSON.stringify(stored), ttl);
  return code;
}

/**
 * Checks the code sent to `email` and, when it matches, uses it up. Case and surrounding spaces
 * are forgiven. After a few wrong guesses the code is void.
 */
export async function consumeVerificationCode(kv: KvStore, email: string, input: string): Promise<boolean> {
  const key = verificationKey(email);
  const raw = await kv.get(key);
  if (!raw) return false;
  let stored: StoredCode;
  try {
    stored = JSON.parse(raw) as StoredCode;
  } catch {
    await kv.delete(key);
    return false;
  }
  if (sameSecret(input.trim().toUpperCase(), stored.code)) {
    await kv.delete(key);
    return true;
  }
  const failures = stored.failures + 1;
  const remaining = Math.ceil((stored.expiresAt - Date.now()) / 1000);
  if (failures >= MAX_CODE_FAILURES || remaining <= 0) await kv.delete(key);
  else await kv.set(key, JSON.stringify({ ...stored, failures }), remaining);
  return false;
}

/** A fresh reset token for the address; only the latest one works. */
export async function issueResetToken(kv: KvStore, email: string): Promise<string> {
  const token = randomBytes(16).toString('hex');
  await kv.set(resetKey(email), token, RESET_MINUTES * 60);
  return token;
}

/** Checks a reset token and uses it up when it matches. */
export async function consumeResetToken(kv: KvStore, email: string, token: string): Promise<boolean> {
  const key = resetKey(email);
  const stored = await kv.get(key);
  if (!stored || !sameSecret(token, stored)) return false;
  await kv.delete(key);
  return true;
}
