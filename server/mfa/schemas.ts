/** Edge schemas of two-factor sign-in, passkeys and fresh verification (new-api's shapes). */
import { Type, type Static } from '@sinclair/typebox';

const Code = Type.String({ maxLength: 64 });

export const CodeBody = Type.Object({ code: Code });
export type CodeBody = Static<typeof CodeBody>;

/** POST /api/user/2fa/disable: a code, or nothing when the session verified freshly (e.g. with a passkey). */
export const DisableBody = Type.Object({ code: Type.Optional(Code) });
export type DisableBody = Static<typeof DisableBody>;

export const TwoFaStatus = Type.Object({
  enabled: Type.Boolean(),
  /** The account is locked after too many wrong passwords or codes. */
  locked: Type.Boolean(),
  backup_codes_remaining: Type.Integer(),
});
export type TwoFaStatus = Static<typeof TwoFaStatus>;

/** The only answer that ever carries the secret: the enrolment's, before its first code confirms it. */
export const TwoFaSetup = Type.Object({
  secret: Type.String(),
  qr_code_data: Type.String(),
  backup_codes: Type.Array(Type.String()),
});
export type TwoFaSetup = Static<typeof TwoFaSetup>;

export const BackupCodes = Type.Object({ backup_codes: Type.Array(Type.String()) });
export type BackupCodes = Static<typeof BackupCodes>;

export const TwoFaStats = Type.Object({
  total_users: Type.Integer(),
  enabled_users: Type.Integer(),
  enabled_rate: Type.String(),
});
export type TwoFaStats = Static<typeof TwoFaStats>;

export const LoginSecondStep = Type.Object({ require_2fa: Type.Literal(true) });

export const PasskeyItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  created_at: Type.Integer(),
  /** Seconds; 0 = never used. */
  last_used_at: Type.Integer(),
  backed_up: Type.Boolean(),
  transports: Type.Array(Type.String()),
});
export type PasskeyItem = Static<typeof PasskeyItem>;

/** GET /api/user/passkey: new-api's `enabled` and `last_used_at` (the latest use), and the list. */
export const PasskeyStatus = Type.Object({
  enabled: Type.Boolean(),
  last_used_at: Type.Integer(),
  passkeys: Type.Array(PasskeyItem),
});
export type PasskeyStatus = Static<typeof PasskeyStatus>;

export const PasskeyIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) });

/** Begin answers: the options for navigator.credentials.create/get, under `publicKey` as new-api sends them. */
export const CeremonyOptions = Type.Object({ options: Type.Object({ publicKey: Type.Unknown() }) });

const B64 = Type.String({ maxLength: 16384, pattern: '^[A-Za-z0-9_-]*={0,2}$' });
const Extensions = Type.Record(Type.String(), Type.Unknown());

/** A registration result as the browser hands it over (RegistrationResponseJSON), plus a label. */
export const RegistrationBody = Type.Object({
  id: Type.String({ maxLength: 1400 }),
  rawId: Type.String({ maxLength: 1400 }),
  type: Type.Literal('public-key'),
  response: Type.Object({
    clientDataJSON: B64,
    attestationObject: B64,
    transports: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 8 })),
    authenticatorData: Type.Optional(B64),
    publicKey: Type.Optional(B64),
    publicKeyAlgorithm: Type.Optional(Type.Integer()),
  }),
  authenticatorAttachment: Type.Optional(Type.Union([Type.String({ maxLength: 32 }), Type.Null()])),
  clientExtensionResults: Type.Optional(Extensions),
  name: Type.Optional(Type.String({ maxLength: 64 })),
});
export type RegistrationBody = Static<typeof RegistrationBody>;

/** An assertion as the browser hands it over (AuthenticationResponseJSON); userHandle may be null. */
export const AssertionBody = Type.Object({
  id: Type.String({ maxLength: 1400 }),
  rawId: Type.String({ maxLength: 1400 }),
  type: Type.Literal('public-key'),
  response: Type.Object({
    clientDataJSON: B64,
    authenticatorData: B64,
    signature: B64,
    userHandle: Type.Optional(Type.Union([B64, Type.Null()])),
  }),
  authenticatorAttachment: Type.Optional(Type.Union([Type.String({ maxLength: 32 }), Type.Null()])),
  clientExtensionResults: Type.Optional(Extensions),
});
export type AssertionBody = Static<typeof AssertionBody>;

export const VerifyBody = Type.Object({
  method: Type.Union([Type.Literal('2fa'), Type.Literal('passkey')]),
  code: Type.Optional(Code),
});
export type VerifyBody = Static<typeof VerifyBody>;

export const VerifyResult = Type.Object({ verified: Type.Boolean(), expires_at: Type.Integer() });
export type VerifyResult = Static<typeof VerifyResult>;
