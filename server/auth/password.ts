import { randomBytes } from 'node:crypto';
import bcrypt from 'bcryptjs';

const COST = 10;

export function hashPassword(plain: string): Promise<string> {
  return bcrypt.hash(plain, COST);
}

let dummy: Promise<string> | null = null;

/**
 * A hash of a password nobody knows, at the same cost as every stored one: checking a login for an
 * unknown account against it takes as long as checking a real account, so the answer's timing does
 * not tell whether an account exists. Made once, in the background from start-up.
 */
export function dummyHash(): Promise<string> {
  dummy ??= bcrypt.hash(randomBytes(18).toString('base64'), COST);
  return dummy;
}

/**
 * Whether `plain` matches `hash`. Without a hash (no such account, or an account that has no
 * password) the check runs against the dummy hash and fails, taking the same time.
 */
export async function verifyPassword(plain: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash) {
    await bcrypt.compare(plain, await dummyHash());
    return false;
  }
  return bcrypt.compare(plain, hash);
}
