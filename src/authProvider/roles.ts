/** The four roles and the rule format every resource and page declares its access with. */
export const ROLE_GUEST = 0;
export const ROLE_USER = 1;
export const ROLE_ADMIN = 10;
export const ROLE_ROOT = 100;

/** Minimum role per action; `'*'` is the default of the actions not named. */
export type AccessRule = Readonly<Record<string, number>>;

export function isAdmin(role: number): boolean {
  return role >= ROLE_ADMIN;
}

export function isRoot(role: number): boolean {
  return role >= ROLE_ROOT;
}
