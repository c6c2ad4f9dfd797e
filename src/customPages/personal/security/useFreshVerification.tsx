/**
 * Runs an action that the server may refuse with `verify.required` (removing a passkey, adding a
 * second one, deleting the account): on that refusal it asks for a fresh verification and runs the
 * action again once verified. Other failures are shown as they come.
 */
import { useState, type ReactNode } from 'react';
import { useNotify } from 'react-admin';
import { ApiError } from '../../../api/client';
import { errorMessage, isCancelled } from '../../shared/errors';
import { VerifyDialog } from './VerifyDialog';

type Action = () => Promise<void>;

export function useFreshVerification(): { attempt: (action: Action) => Promise<void>; dialog: ReactNode } {
  const notify = useNotify();
  const [waiting, setWaiting] = useState<{ action: Action } | null>(null);

  const attempt = async (action: Action) => {
    try {
      await action();
    } catch (err) {
      if (err instanceof ApiError && err.code === 'verify.required') setWaiting({ action });
      else notify(isCancelled(err) ? 'security.login.passkey_cancelled' : errorMessage(err), { type: 'error' });
    }
  };

  const dialog = (
    <VerifyDialog
      open={waiting !== null}
      onClose={() => setWaiting(null)}
      onVerified={() => {
        const pending = waiting;
        setWaiting(null);
        if (pending) void attempt(pending.action);
      }}
    />
  );
  return { attempt, dialog };
}
