/** Client checks of the setup wizard (the server checks the same again); the admin fields only count while no root exists. */
import type { SetupBody } from '../../../server/status/schemas';

export type UsageMode = 'external' | 'self' | 'demo';

export interface SetupForm {
  username: string;
  password: string;
  confirmPassword: string;
  usageMode: UsageMode;
}

export const SETUP_PASSWORD_MIN = 8;

export function validateSetup(form: SetupForm, rootInit: boolean): string | null {
  if (rootInit) return null;
  if (!form.username.trim()) return 'pages.setup.username_required';
  if (form.password.length < SETUP_PASSWORD_MIN) return 'pages.setup.password_short';
  if (form.password !== form.confirmPassword) return 'pages.setup.password_mismatch';
  return null;
}

export function setupBody(form: SetupForm, rootInit: boolean): SetupBody {
  const modes = { SelfUseModeEnabled: form.usageMode === 'self', DemoSiteEnabled: form.usageMode === 'demo' };
  if (rootInit) return modes;
  return { username: form.username.trim(), password: form.password, confirmPassword: form.confirmPassword, ...modes };
}
