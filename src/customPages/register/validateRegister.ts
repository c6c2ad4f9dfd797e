/** Client checks of the registration form (the server checks the same again); returns the message key of the first problem. */
export interface RegisterForm {
  username: string;
  password: string;
  password2: string;
  email: string;
  verification_code: string;
}

export const USERNAME_MAX = 12;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 20;

export function validateRegister(form: RegisterForm, emailVerification: boolean): string | null {
  const username = form.username.trim();
  if (!username || !form.password) return 'pages.register.required';
  if (username.length > USERNAME_MAX) return 'pages.register.username_too_long';
  if (form.password.length < PASSWORD_MIN || form.password.length > PASSWORD_MAX) return 'pages.register.password_length';
  if (form.password !== form.password2) return 'pages.common.password_mismatch';
  if (emailVerification && (!form.email.trim() || !form.verification_code.trim())) return 'pages.register.email_required';
  return null;
}
