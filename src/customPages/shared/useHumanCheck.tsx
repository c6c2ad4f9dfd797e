/** The Turnstile token of a form: the widget to render and a guard that the check has finished. */
import { useState, type ReactNode } from 'react';
import { useNotify } from 'react-admin';
import type { SiteStatus } from '../../status/status';
import { Turnstile } from './Turnstile';

export function useHumanCheck(status: SiteStatus | null): { widget: ReactNode; token: string; ready: () => boolean } {
  const notify = useNotify();
  const [token, setToken] = useState('');
  const enabled = Boolean(status?.turnstile_check && status.turnstile_site_key);
  const widget = enabled && status ? <Turnstile siteKey={status.turnstile_site_key} onToken={setToken} /> : null;
  const ready = () => {
    if (enabled && !token) {
      notify('pages.common.turnstile_wait', { type: 'warning' });
      return false;
    }
    return true;
  };
  return { widget, token, ready };
}
