/**
 * The WebAuthn ceremonies over SimpleWebAuthn: options for the browser, and verification of what
 * the authenticator signed against the challenge this gateway issued (ceremonies.ts), the relying
 * party (relying-party.ts) and, for assertions, the stored public key and signature counter.
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationExtensionsClientOutputs,
  type AuthenticationResponseJSON,
  type AuthenticatorAttachment,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { KvStore } from '../cache/kv.js';
import type { Passkey, User } from '../db/types.js';
import { fail } from '../http/errors.js';
import { CEREMONY_TIMEOUT_MS, rememberChallenge, takeChallenge, type Ceremony } from './ceremonies.js';
import type { RelyingParty } from './relying-party.js';
import type { AssertionBody, RegistrationBody } from './schemas.js';

const MAX_CREDENTIAL_ID_LENGTH = 512;

export function transportsOf(passkey: Pick<Passkey, 'transports'>): AuthenticatorTransport[] {
  return passkey.transports ? (passkey.transports.split(',') as AuthenticatorTransport[]) : [];
}

function attachmentOf(value: string | null | undefined): { authenticatorAttachment?: AuthenticatorAttachment } {
  return value === 'platform' || value === 'cross-platform' ? { authenticatorAttachment: value } : {};
}

/** The user handle of a credential: the user's id in decimal, as new-api sets it. */
const userHandleOf = (userId: number) => new TextEncoder().encode(String(userId));

export async function registrationOptions(
  kv: KvStore,
  rp: RelyingParty,
  user: User,
  existing: Passkey[],
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.username,
    userID: userHandleOf(user.id),
    userDisplayName: user.display_name || user.username,
    timeout: CEREMONY_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: transportsOf(p) })),
    // A discoverable credential: signing in needs no user name first.
    authenticatorSelection: {
      residentKey: 'required',
      requireResidentKey: true,
      userVerification: rp.userVerification,
      ...(rp.attachment ? { authenticatorAttachment: rp.attachment } : {}),
    },
  });
  await rememberChallenge(kv, 'register', options.challenge, user.id);
  return options;
}

export interface VerifiedCredential {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string;
  backedUp: boolean;
}

/** Verifies a registration the browser finished for `userId`; the new credential, or a refusal. */
export async function verifyRegistration(
  kv: KvStore,
  rp: RelyingParty,
  userId: number,
  body: RegistrationBody,
): Promise<VerifiedCredential> {
  const taken = await takeChallenge(kv, 'register', body.response.clientDataJSON);
  if (!taken || taken.userId !== userId) throw fail('passkey.ceremony_expired');
  const response: RegistrationResponseJSON = {
    id: body.id,
    rawId: body.rawId,
    type: 'public-key',
    response: {
      clientDataJSON: body.response.clientDataJSON,
      attestationObject: body.response.attestationObject,
      ...(body.response.transports ? { transports: body.response.transports as AuthenticatorTransport[] } : {}),
    },
    clientExtensionResults: (body.clientExtensionResults ?? {}) as AuthenticationExtensionsClientOutputs,
    ...attachmentOf(body.authenticatorAttachment),
  };
  let result;
  try {
    result = await verifyRegistrationResponse({
      response,
      expectedChallenge: taken.challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: rp.userVerification === 'required',
    });
  } catch (err) {
    throw fail('passkey.verification_failed', { detail: (err as Error).message });
  }
  if (!result.verified) throw fail('passkey.verification_failed', { detail: 'registration not verified' });
  const { credential, credentialBackedUp } = result.registrationInfo;
  if (credential.id.length > MAX_CREDENTIAL_ID_LENGTH) throw fail('passkey.credential_too_long');
  return {
    credentialId: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: (credential.transports ?? body.response.transports ?? []).join(','),
    backedUp: credentialBackedUp,
  };
}

/** Options for an assertion: any discoverable credential (sign-in), or one of `allowed` (verification). */
export async function assertionOptions(
  kv: KvStore,
  rp: RelyingParty,
  ceremony: Exclude<Ceremony, 'register'>,
  userId: number,
  allowed: Passkey[] = [],
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    timeout: CEREMONY_TIMEOUT_MS,
    userVerification: rp.userVerification,
    allowCredentials: allowed.map((p) => ({ id: p.credential_id, transports: transportsOf(p) })),
  });
  await rememberChallenge(kv, ceremony, options.challenge, userId);
  return options;
}

/** The challenge an assertion answers and the user it was issued to (0 for a sign-in). */
export async function takeAssertionChallenge(
  kv: KvStore,
  ceremony: Exclude<Ceremony, 'register'>,
  body: AssertionBody,
): Promise<{ challenge: string; userId: number }> {
  const taken = await takeChallenge(kv, ceremony, body.response.clientDataJSON);
  if (!taken) throw fail('passkey.ceremony_expired');
  return taken;
}

/** The user id an assertion's user handle names, when it names one. */
export function assertedUserId(body: AssertionBody): number | null {
  const handle = body.response.userHandle;
  if (!handle) return null;
  const text = Buffer.from(handle, 'base64url').toString('utf8');
  return /^\d{1,10}$/.test(text) ? Number(text) : -1;
}

/** Verifies an assertion by `passkey` over `challenge`; the authenticator's new counter and whether it verified the user. */
export async function verifyAssertion(
  rp: RelyingParty,
  passkey: Passkey,
  challenge: string,
  body: AssertionBody,
): Promise<{ counter: number; userVerified: boolean }> {
  const response: AuthenticationResponseJSON = {
    id: body.id,
    rawId: body.rawId,
    type: 'public-key',
    response: {
      clientDataJSON: body.response.clientDataJSON,
      authenticatorData: body.response.authenticatorData,
      signature: body.response.signature,
      ...(body.response.userHandle ? { userHandle: body.response.userHandle } : {}),
    },
    clientExtensionResults: (body.clientExtensionResults ?? {}) as AuthenticationExtensionsClientOutputs,
    ...attachmentOf(body.authenticatorAttachment),
  };
  let result;
  try {
    result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(Buffer.from(passkey.public_key, 'base64url')),
        counter: passkey.sign_count,
        transports: transportsOf(passkey),
      },
      requireUserVerification: rp.userVerification === 'required',
    });
  } catch (err) {
    throw fail('passkey.verification_failed', { detail: (err as Error).message });
  }
  if (!result.verified) throw fail('passkey.verification_failed', { detail: 'assertion not verified' });
  return { counter: result.authenticationInfo.newCounter, userVerified: result.authenticationInfo.userVerified };
}
