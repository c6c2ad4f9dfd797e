import type { CreateTokenBody, RevealedKey, TokenPage, TokenView } from '../../../server/tokens/schemas';
import type { UserGroups } from '../../../server/users/schemas';

/** A row of the tokens list: the token as the server sends it, its key masked and without `sk-`. */
export type TokenRecord = TokenView;
export type { CreateTokenBody, RevealedKey, TokenPage, UserGroups };

export const TOKEN_ENABLED = 1;
export const TOKEN_DISABLED = 2;
export const TOKEN_EXPIRED = 3;
export const TOKEN_EXHAUSTED = 4;

/** `expired_time` of a token that never expires. */
export const NEVER_EXPIRES = -1;

/** Keys are shown and copied with this prefix; the list answers them without it. */
export const KEY_PREFIX = 'sk-';
