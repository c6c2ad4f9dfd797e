export const ROLE_USER = 1;
export const ROLE_ADMIN = 10;
export const ROLE_ROOT = 100;

export const USER_ENABLED = 1;
export const USER_DISABLED = 2;
