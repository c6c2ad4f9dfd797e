/** Two-factor helpers for server tests: codes computed from the secret as an authenticator app would. */
import { expect } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import type { ApiClient } from './gateway.js';

/** The code an authenticator shows `offsetSteps` 30-second steps from now. */
export function totpCode(secret: string, offsetSteps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

/** Turns two-factor sign-in on for the client's user; returns the secret, the backup codes and the code it took. */
export async function enableTwoFa(client: ApiClient): Promise<{ secret: string; backupCodes: string[]; enabledWith: string }> {
  const setup = await client.post('/api/user/2fa/setup');
  expect(setup.body.success, JSON.stringify(setup.body)).toBe(true);
  const { secret, backup_codes: backupCodes } = setup.body.data as { secret: string; backup_codes: string[] };
  const enabledWith = totpCode(secret);
  const enable = await client.post('/api/user/2fa/enable', { code: enabledWith });
  expect(enable.body.success, JSON.stringify(enable.body)).toBe(true);
  return { secret, backupCodes, enabledWith };
}
