/**
 * Sending an e-mail to an address the person typed (a verification code through /api/verification,
 * a reset link through /api/reset_password): a GET with `email` and the Turnstile token, then a
 * 30 s countdown before the button may send again.
 */
import { useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';
import { api } from '../../api/client';
import { RESEND_SECONDS } from './constants';
import { errorMessage } from './errors';
import { useCountdown } from './useCountdown';
import type { useHumanCheck } from './useHumanCheck';

export interface MailSender {
  /** Warns with `missing` when the address is blank, waits for the human check, then sends. */
  send: (email: string) => Promise<void>;
  sending: boolean;
  /** Seconds until another send; 0 when the button may be used. */
  left: number;
  /** The button's text: `idle` translated, or "resend in N" while counting down. */
  buttonText: (idle: string) => string;
}

export function useMailSender(
  human: Pick<ReturnType<typeof useHumanCheck>, 'token' | 'ready'>,
  { path, missing, sent }: { path: string; missing: string; sent: string },
): MailSender {
  const translate = useTranslate();
  const notify = useNotify();
  const countdown = useCountdown(RESEND_SECONDS);
  const [sending, setSending] = useState(false);

  const send = async (email: string) => {
    if (!email.trim()) {
      notify(missing, { type: 'warning' });
      return;
    }
    if (!human.ready()) return;
    setSending(true);
    try {
      const query = new URLSearchParams({ email: email.trim(), turnstile: human.token });
      await api.get(`${path}?${query}`);
      notify(sent, { type: 'success' });
      countdown.start();
    } catch (err) {
      notify(errorMessage(err), { type: 'error' });
    } finally {
      setSending(false);
    }
  };

  const buttonText = (idle: string) =>
    countdown.left > 0 ? translate('pages.common.resend_in', { seconds: countdown.left }) : translate(idle);

  return { send, sending, left: countdown.left, buttonText };
}
