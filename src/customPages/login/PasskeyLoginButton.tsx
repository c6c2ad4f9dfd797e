/**
 * "Sign in with a passkey": offered when the server enables passkeys and this browser can use them
 * (WebAuthn exists only in secure contexts: https or localhost). The browser lists the passkeys it
 * holds for this site; no user name is asked. A passkey that did not verify its holder, on an
 * account with two-factor sign-in, leads to the code step.
 */
import { useState } from 'react';
import { useLogin, useNotify, useTranslate } from 'react-admin';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import Button from '@mui/material/Button';
import KeyIcon from '@mui/icons-material/Key';
import { SecondFactorRequired } from '../../api/securityMethods';
import { errorMessage, isCancelled } from '../shared/errors';
import { LOGIN_LANDING } from '../shared/constants';

export function PasskeyLoginButton({ enabled, onSecondStep }: { enabled: boolean; onSecondStep: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const login = useLogin();
  const [busy, setBusy] = useState(false);
  if (!enabled || !browserSupportsWebAuthn()) return null;

  const signIn = async () => {
    setBusy(true);
    try {
      await login({ passkey: true }, LOGIN_LANDING);
      notify('pages.login.success', { type: 'success' });
    } catch (err) {
      if (err instanceof SecondFactorRequired) onSecondStep();
      else notify(isCancelled(err) ? 'security.login.passkey_cancelled' : errorMessage(err), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Button variant="outlined" size="large" startIcon={<KeyIcon />} onClick={signIn} disabled={busy} fullWidth>
      {translate('security.login.passkey')}
    </Button>
  );
}
