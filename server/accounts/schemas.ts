import { Type, type Static } from '@sinclair/typebox';

export const LoginBody = Type.Object({
  username: Type.String({ maxLength: 128 }),
  password: Type.String({ maxLength: 128 }),
});
export type LoginBody = Static<typeof LoginBody>;
