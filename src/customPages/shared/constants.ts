/** localStorage key of the invitation code carried from ?aff= to registration and OAuth. */
export const AFF_KEY = 'aff';
/** Where a password login (and an OAuth callback login) lands: the token list. */
export const LOGIN_LANDING = '/token';
/** Resend countdowns of the e-mail code and the password reset, so a person cannot flood a mailbox. */
export const RESEND_SECONDS = 30;
