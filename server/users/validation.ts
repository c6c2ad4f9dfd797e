/** Field rules shared by the user endpoints (spec sections 5 and 9); each throws `fail`. */
import { fail } from '../http/errors.js';

export const USERNAME_MAX = 12;
export const DISPLAY_NAME_MAX = 20;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 20;

/** Returns the trimmed username; the caller decides what an empty one means. */
export function checkUsername(raw: string): string {
  const username = raw.trim();
  if ([...username].length > USERNAME_MAX) throw fail(`用户名长度不能超过${USERNAME_MAX}个字符`);
  if (/[\s\p{Cc}]/u.test(username)) throw fail('用户名不能包含空白字符');
  return username;
}

/** Returns the trimmed display name (possibly empty). */
export function checkDisplayName(raw: string): string {
  const name = raw.trim();
  if ([...name].length > DISPLAY_NAME_MAX) throw fail(`显示名称长度不能超过${DISPLAY_NAME_MAX}个字符`);
  return name;
}

/** At least 8 characters; at most 20 where the spec caps it (registration, own password). */
export function checkPassword(password: string, limits: { max: boolean }): void {
  if (password.length < PASSWORD_MIN) throw fail(`密码长度至少为${PASSWORD_MIN}个字符`);
  if (limits.max && password.length > PASSWORD_MAX) throw fail(`密码长度不能超过${PASSWORD_MAX}个字符`);
}
