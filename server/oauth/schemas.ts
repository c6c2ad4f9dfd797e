/** Query strings of the third-party login and binding endpoints (GET /api/oauth/…). */
import { Type, type Static } from '@sinclair/typebox';

/** GET /api/oauth/state?aff= : the invitation code to use if the login signs a new user up. */
export const StateQuery = Type.Object({
  aff: Type.Optional(Type.String({ maxLength: 64 })),
});
export type StateQuery = Static<typeof StateQuery>;

/** GET /api/oauth/{github|oidc|linuxdo}?code=&state= : what the provider sent the browser back with. */
export const CallbackQuery = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 2048 })),
  state: Type.Optional(Type.String({ maxLength: 256 })),
});
export type CallbackQuery = Static<typeof CallbackQuery>;

/** GET /api/oauth/wechat?code= and /api/oauth/wechat/bind?code= : the code the official account replied with. */
export const WeChatQuery = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 64 })),
  aff: Type.Optional(Type.String({ maxLength: 64 })),
});
export type WeChatQuery = Static<typeof WeChatQuery>;

/** POST /api/oauth/wechat/bind: the family sends the code as JSON (`?code=` is taken too). */
export const WeChatBindBody = Type.Object({ code: Type.Optional(Type.String({ maxLength: 64 })) });
export type WeChatBindBody = Static<typeof WeChatBindBody>;

const field = () => Type.Optional(Type.String({ maxLength: 512 }));

/** GET /api/oauth/telegram/login and /bind: the login widget's fields, as it gave them. */
export const TelegramQuery = Type.Object({
  id: field(),
  first_name: field(),
  last_name: field(),
  username: field(),
  photo_url: field(),
  auth_date: field(),
  hash: field(),
  lang: field(),
});
export type TelegramQuery = Static<typeof TelegramQuery>;
