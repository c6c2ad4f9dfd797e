import type { PublicUser } from '../../../server/users/repository';
import type { ManageAction } from '../../../server/users/schemas';

/** A row of the users list: the public user as the server sends it. */
export type UserRecord = PublicUser;
export type { ManageAction };

export const USER_STATUS_ACTIVE = 1;
export const USER_STATUS_BANNED = 2;
/** Disabled-like: the enable button stays off for it. */
export const USER_STATUS_LOCKED = 3;
