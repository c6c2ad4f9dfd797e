/**
 * Second factors and passkeys, as custom dataProvider methods (spread into customMethods): the
 * person's own two-factor sign-in and passkeys, fresh verification before sensitive actions, and
 * the admins' resets. The WebAuthn ceremonies run here too: the server's options go to the browser
 * (@simplewebauthn/browser, which asks the authenticator) and its answer goes back.
 */
import { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { BackupCodes, PasskeyStatus, TwoFaSetup, TwoFaStatus, VerifyResult } from '../../server/mfa/schemas';
import type { PublicUser } from '../../server/users/repository';
import { api } from './client';

export type { BackupCodes, PasskeyStatus, TwoFaSetup, TwoFaStatus, VerifyResult };

/** A sign-in answer: the user, or the request for the second step. */
export type LoginAnswer = PublicUser | { require_2fa: true };

export function needsSecondStep(answer: LoginAnswer): answer is { require_2fa: true } {
  return 'require_2fa' in answer && answer.require_2fa === true;
}

/** Thrown by the authProvider's `login` when the account asks for its second factor: the login page shows the code step. */
export class SecondFactorRequired extends Error {
  constructor() {
    super('security.login.twofa_hint');
  }
}

interface Ceremony<T> {
  options: { publicKey: T };
}

/** Signs in with a passkey the browser offers (a discoverable credential: no user name needed). */
async function passkeySignIn(): Promise<LoginAnswer> {
  const begin = await api.post<Ceremony<PublicKeyCredentialRequestOptionsJSON>>('/api/user/passkey/login/begin');
  const assertion = await startAuthentication({ optionsJSON: begin.options.publicKey });
  return api.post<LoginAnswer>('/api/user/passkey/login/finish', assertion);
}

export const securityMethods = {
  /** The second step of signing in: a TOTP or backup code for the sign-in this browser began. */
  loginWithCode(code: string): Promise<LoginAnswer> {
    return api.post<LoginAnswer>('/api/user/login/2fa', { code });
  },
  loginWithPasskey: passkeySignIn,

  twoFaStatus(): Promise<TwoFaStatus> {
    return api.get<TwoFaStatus>('/api/user/2fa/status');
  },
  /** A new secret and backup codes, shown once; the first code confirms them. */
  twoFaSetup(): Promise<TwoFaSetup> {
    return api.post<TwoFaSetup>('/api/user/2fa/setup');
  },
  async twoFaEnable(code: string): Promise<void> {
    await api.post('/api/user/2fa/enable', { code });
  },
  /** With a code, or none when this session was just verified (e.g. with a passkey). */
  async twoFaDisable(code: string): Promise<void> {
    await api.post('/api/user/2fa/disable', code ? { code } : {});
  },
  regenerateBackupCodes(code: string): Promise<BackupCodes> {
    return api.post<BackupCodes>('/api/user/2fa/backup_codes', { code });
  },

  passkeys(): Promise<PasskeyStatus> {
    return api.get<PasskeyStatus>('/api/user/passkey');
  },
  /** Registers a passkey of this device (or a security key) under `name`. */
  async addPasskey(name: string): Promise<void> {
    const begin = await api.post<Ceremony<PublicKeyCredentialCreationOptionsJSON>>('/api/user/passkey/register/begin');
    const attestation = await startRegistration({ optionsJSON: begin.options.publicKey });
    await api.post('/api/user/passkey/register/finish', { ...attestation, ...(name ? { name } : {}) });
  },
  async removePasskey(id: number): Promise<void> {
    await api.delete(`/api/user/passkey/${id}`);
  },

  /** Fresh verification of this session with a TOTP or backup code. */
  verifyWithCode(code: string): Promise<VerifyResult> {
    return api.post<VerifyResult>('/api/verify', { method: '2fa', code });
  },
  /** Fresh verification of this session with one of the person's passkeys. */
  async verifyWithPasskey(): Promise<VerifyResult> {
    const begin = await api.post<Ceremony<PublicKeyCredentialRequestOptionsJSON>>('/api/user/passkey/verify/begin');
    const assertion = await startAuthentication({ optionsJSON: begin.options.publicKey });
    await api.post('/api/user/passkey/verify/finish', assertion);
    return api.post<VerifyResult>('/api/verify', { method: 'passkey' });
  },

  async resetUserTwoFa(userId: number): Promise<void> {
    await api.delete(`/api/user/${userId}/2fa`);
  },
  async resetUserPasskeys(userId: number): Promise<void> {
    await api.delete(`/api/user/${userId}/reset_passkey`);
  },
};
