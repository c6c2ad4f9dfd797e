/**
 * WebAuthn challenges between a ceremony's begin and finish. They live in the short-lived-value
 * store (Redis when configured), keyed by purpose and challenge, so any gateway process can finish
 * a ceremony another one began; each holds the user it was issued to (0 for a sign-in, where the
 * authenticator names the user). A challenge is spent by its first finish, valid or not.
 */
import type { KvStore } from '../cache/kv.js';

export type Ceremony = 'register' | 'login' | 'verify';

/** The browser's timeout for the person to answer their authenticator. */
export const CEREMONY_TIMEOUT_MS = 120_000;
/** A little longer than the browser waits: a finish that arrives as the prompt times out still counts. */
const CHALLENGE_SECONDS = 180;
const MAX_CHALLENGE_LENGTH = 128;

const key = (ceremony: Ceremony, challenge: string) => `webauthn:${ceremony}:${challenge}`;

export async function rememberChallenge(kv: KvStore, ceremony: Ceremony, challenge: string, userId: number): Promise<void> {
  await kv.set(key(ceremony, challenge), String(userId), CHALLENGE_SECONDS);
}

/** The challenge the browser signed, as its client data names it (still to be verified). */
function signedChallenge(clientDataJSON: string): string | null {
  try {
    const data: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    if (typeof data !== 'object' || data === null || !('challenge' in data)) return null;
    const challenge = data.challenge;
    return typeof challenge === 'string' && challenge.length > 0 && challenge.length <= MAX_CHALLENGE_LENGTH ? challenge : null;
  } catch {
    return null;
  }
}

/**
 * Takes the challenge a finish answers: the challenge and the user it was issued to, or null when
 * it was never issued for this ceremony, has expired or was already spent (on any process).
 */
export async function takeChallenge(
  kv: KvStore,
  ceremony: Ceremony,
  clientDataJSON: string,
): Promise<{ challenge: string; userId: number } | null> {
  const challenge = signedChallenge(clientDataJSON);
  if (challenge === null) return null;
  const owner = await kv.get(key(ceremony, challenge));
  if (owner === null) return null;
  if (!(await kv.setIfAbsent(`webauthn-spent:${challenge}`, '1', CHALLENGE_SECONDS))) return null;
  await kv.delete(key(ceremony, challenge));
  return { challenge, userId: Number(owner) };
}
