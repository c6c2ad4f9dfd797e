/** Token status: 1 enabled, 2 disabled (users set these), 3 expired, 4 exhausted (the relay marks these). */
export const TOKEN_ENABLED = 1;
export const TOKEN_DISABLED = 2;
export const TOKEN_EXPIRED = 3;
export const TOKEN_EXHAUSTED = 4;

/** `expired_time` of a token that never expires. */
export const NEVER_EXPIRES = -1;

export function isExpired(expiredTime: number, now: number): boolean {
  return expiredTime !== NEVER_EXPIRES && expiredTime <= now;
}

export function isExhausted(token: { remain_quota: number; unlimited_quota: boolean }): boolean {
  return !token.unlimited_quota && token.remain_quota <= 0;
}
