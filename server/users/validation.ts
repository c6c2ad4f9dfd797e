/** Field rules shared by the user endpoints; each throws `fail`. */
import { fail } from '../http/errors.js';

export const USERNAME_MAX = 12;
export const DISPLAY_NAME_MAX = 20;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 20;

/** Returns the trimmed username; the caller decides what an empty one means. */
export function checkUsername(raw: string): string {
  const username = raw.trim();
  if ([...username].length > USERNAME_MAX) throw fail('user.username_too_long', { max: USERNAME_MAX });
  if (/[\s\p{Cc}]/u.test(username)) throw fail('user.username_whitespace');
  return username;
}

/** Returns the trimmed display name (possibly empty). */
export function checkDisplayName(raw: string): string {
  const name = raw.trim();
  if ([...name].length > DISPLAY_NAME_MAX) throw fail('user.display_name_too_long', { max: DISPLAY_NAME_MAX });
  return name;
}

export const REMARK_MAX = 255;

/** The admin's note: trimmed, null when empty. */
export function checkRemark(raw: string): string | null {
  const remark = raw.trim();
  if ([...remark].length > REMARK_MAX) throw fail('user.remark_too_long', { max: REMARK_MAX });
  return remark === '' ? null : remark;
}

/** At least 8 characters; at most 20 where the console caps it (registration, own password). */
export function checkPassword(password: string, limits: { max: boolean }): void {
  if (password.length < PASSWORD_MIN) throw fail('user.password_too_short', { min: PASSWORD_MIN });
  if (limits.max && password.length > PASSWORD_MAX) throw fail('user.password_too_long', { max: PASSWORD_MAX });
}
