import { Type, type Static } from '@sinclair/typebox';

/** `?turnstile=` carried by the calls a bot-check widget guards. */
export const TurnstileQuery = Type.Object({
  turnstile: Type.Optional(Type.String({ maxLength: 4096 })),
});
export type TurnstileQuery = Static<typeof TurnstileQuery>;

export const LoginBody = Type.Object({
  username: Type.String({ maxLength: 128 }),
  password: Type.String({ maxLength: 128 }),
});
export type LoginBody = Static<typeof LoginBody>;

/**
 * POST /api/user/register. Lengths are checked by the handler (with the family's refusals); the
 * schema only caps what is read.
 */
export const RegisterBody = Type.Object({
  username: Type.String({ maxLength: 64 }),
  password: Type.String({ maxLength: 128 }),
  password2: Type.Optional(Type.String({ maxLength: 128 })),
  email: Type.Optional(Type.String({ maxLength: 256 })),
  verification_code: Type.Optional(Type.String({ maxLength: 32 })),
  aff_code: Type.Optional(Type.String({ maxLength: 64 })),
});
export type RegisterBody = Static<typeof RegisterBody>;

/** GET /api/verification and GET /api/reset_password. */
export const EmailQuery = Type.Object({
  email: Type.String({ maxLength: 256 }),
  turnstile: Type.Optional(Type.String({ maxLength: 4096 })),
});
export type EmailQuery = Static<typeof EmailQuery>;

/** POST /api/user/reset: the e-mail and token of the link; data is the new password. */
export const ResetBody = Type.Object({
  email: Type.String({ maxLength: 256 }),
  token: Type.String({ maxLength: 128 }),
});
export type ResetBody = Static<typeof ResetBody>;

export const ResetResult = Type.String();
export type ResetResult = Static<typeof ResetResult>;
