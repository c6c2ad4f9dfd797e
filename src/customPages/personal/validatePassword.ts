/** Client checks of the change-password dialog (the server checks the same again); the message key of the first problem. */
export interface PasswordChange {
  original: string;
  password: string;
  confirm: string;
}

export const PASSWORD_MIN = 8;

export function validatePasswordChange(form: PasswordChange): string | null {
  if (!form.original) return 'pages.personal.password.original_required';
  if (!form.password) return 'pages.personal.password.new_required';
  if (form.password.length < PASSWORD_MIN) return 'pages.personal.password.too_short';
  if (form.password === form.original) return 'pages.personal.password.same';
  if (form.password !== form.confirm) return 'pages.common.password_mismatch';
  return null;
}
