/**
 * A gateway whose mail goes to a local SMTP listener, for the account and personal-settings tests:
 * started on one database with root logged in and the SMTP options set, and the options a test may
 * change put back after each test. `mailGateway` registers its beforeAll, afterAll and afterEach.
 */
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { DbName } from './databases.js';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from './gateway.js';
import { startTestSmtp, type TestSmtp } from './smtp.js';

/** The account the gateway sends mail as. */
export const SMTP_ACCOUNT = 'gateway@example.com';

/** Sets one option as `root`; the test fails unless the gateway accepts it. */
export async function setOption(root: ApiClient, key: string, value: string | number | boolean): Promise<void> {
  const res = await root.put('/api/option/', { key, value });
  expect(res.body, `setting ${key}`).toEqual({ success: true, message: '' });
}

export interface MailGateway {
  tg: TestGateway;
  smtp: TestSmtp;
  root: ApiClient;
  /** Sets one option as root (see setOption). */
  setOption(key: string, value: string | number | boolean): Promise<void>;
}

/** `resetOptions`: the options tests may change, with the values they go back to after each test. */
export function mailGateway(kind: DbName, resetOptions: Record<string, string>): MailGateway {
  let tg: TestGateway;
  let smtp: TestSmtp;
  let root: ApiClient;
  const set = (key: string, value: string | number | boolean) => setOption(root, key, value);

  /** The gateway, the listener and root are added by the beforeAll below, before any test reads them. */
  const fixture = { setOption: set } as MailGateway;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    tg = await startTestGateway(kind);
    root = await setupRoot(tg);
    await set('SMTPServer', smtp.host);
    await set('SMTPPort', smtp.port);
    await set('SMTPAccount', SMTP_ACCOUNT);
    await set('SMTPToken', 'smtp-secret');
    await set('SMTPSSLEnabled', false);
    Object.assign(fixture, { tg, smtp, root });
  });
  afterAll(async () => {
    await tg?.close();
    await smtp?.close();
  });
  afterEach(async () => {
    for (const [key, value] of Object.entries(resetOptions)) await set(key, value);
  });
  return fixture;
}
