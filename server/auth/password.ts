import { randomBytes } from 'node:crypto';
import bcrypt from 'bcryptjs';

/**
 * The bcrypt cost of new hashes: a process-wide setting, set once at boot from PASSWORD_HASH_COST.
 * A stored hash names its own cost, so a check never depends on this value.
 */
let cost = 10;

export function setPasswordHashCost(next: number): void {
  if (!Number.isInteger(next) || next < 4 || next > 15) throw new RangeError(`bcrypt cost ${next} is outside 4–15`);
  cost = next;
}

export function hashPassword(plain: string): Promise<string> {
  return bcrypt.hash(plain, cost);
}

const dummies = new Map<number, Promise<string>>();

/**
 * A hash of a password nobody knows, at the cost new hashes get: checking a login for an unknown
 * account against it takes as long as checking a real account, so the answer's timing does not tell
 * whether an account exists. Made once per cost, in the background from start-up.
 */
export function dummyHash(): Promise<string> {
  let dummy = dummies.get(cost);
  if (!dummy) {
    dummy = bcrypt.hash(randomBytes(18).toString('base64'), cost);
    dummies.set(cost, dummy);
  }
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
