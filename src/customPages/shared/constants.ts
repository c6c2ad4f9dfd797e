/** localStorage key of the invitation code carried from ?aff= to registration and OAuth. */
export const AFF_KEY = 'aff';
/** Where a password login (and an OAuth callback login) lands (spec §2). */
export const LOGIN_LANDING = '/token';
/** Resend countdowns of the e-mail code and the password reset (spec §9). */
export const RESEND_SECONDS = 30;
