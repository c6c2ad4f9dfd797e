/**
 * Quota warnings through the real gateway: a relayed request that leaves the balance under the
 * user's threshold mails them (real SMTP server) or posts a signed webhook (real HTTPS server that
 * checks the HMAC), at most once per 2 hours (an injectable clock moves time), never delaying the
 * answer, and never to a private address the operator has not named in ALLOW_PRIVATE_HOSTS
 * (ALLOW_PRIVATE_UPSTREAMS, which opens channel upstreams, does not open webhooks).
 */
import { execFileSync } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { quotaWarningsIdle, SIGNATURE_HEADER, WARNING_INTERVAL_MS, warningClock } from '../../server/notify/quota-warning.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { startTestSmtp, type TestSmtp } from '../helpers/smtp.js';

// The webhook receiver below is a local HTTPS server with a throwaway self-signed certificate.
process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';

const SECRET = 'hook-secret-123';

interface Hook {
  body: string;
  signature: string | undefined;
}

/** An HTTPS receiver on 127.0.0.1 that records each POST; `delayMs` holds its answer back. */
async function startReceiver(): Promise<{ url: string; hooks: Hook[]; delayMs: number; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'gw-hook-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  const state = { url: '', hooks: [] as Hook[], delayMs: 0, close: async (): Promise<void> => undefined };
  const server: Server = createServer(
    { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const signature = req.headers[SIGNATURE_HEADER.toLowerCase()];
        state.hooks.push({
          body: Buffer.concat(chunks).toString('utf8'),
          signature: typeof signature === 'string' ? signature : undefined,
        });
        setTimeout(() => res.writeHead(200).end('ok'), state.delayMs);
      });
    },
  );
  rmSync(dir, { recursive: true, force: true });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

function signatureValid(hook: Hook, secret: string): boolean {
  if (!hook.signature) return false;
  const expected = createHmac('sha256', secret).update(hook.body).digest();
  const given = Buffer.from(hook.signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe('quota warnings', () => {
  let f: RelayFixture;
  let smtp: TestSmtp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const ctx = () => f.tg.gateway.ctx;

  const setOption = async (key: string, value: string | number | boolean) => {
    const res = await f.root.put('/api/option/', { key, value });
    expect(res.body.success, `${key}: ${res.body.message}`).toBe(true);
  };
  const setQuota = async (quota: number) => {
    const res = await f.root.put('/api/user/', {
      id: f.userId,
      username: 'alice',
      display_name: 'Alice',
      quota,
      group: 'default',
    });
    expect(res.body.success, res.body.message).toBe(true);
  };
  const setSetting = async (setting: Record<string, unknown>) => {
    const res = await f.user.put('/api/user/setting', setting);
    expect(res.body.success, res.body.message).toBe(true);
  };
  /** One relayed call; resolves when the answer is in and the warning check it started is done. */
  const call = async (model = 'gpt-4o-mini') => {
    await f.openai().chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
    await quotaWarningsIdle(ctx());
  };
  const mailsTo = (address: string) => smtp.messages.filter((m) => m.to.includes(address)).length;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    receiver = await startReceiver();
    f = await startRelayFixture('sqlite');
    await setOption('SMTPServer', smtp.host);
    await setOption('SMTPPort', smtp.port);
    await setOption('SMTPAccount', 'gateway@example.com');
    await setOption('SMTPSSLEnabled', false);
    await setOption('SystemName', 'Test Gateway');
    await setOption('ServerAddress', 'https://gw.example.com');
  });
  afterAll(async () => {
    await f?.close();
    await smtp?.close();
    await receiver?.close();
  });
  afterEach(async () => {
    warningClock.now = () => Date.now();
    receiver.delayMs = 0;
    // Channel upstreams stay open (the stand-in is on loopback); they never open webhooks anyway.
    process.env.ALLOW_PRIVATE_UPSTREAMS = 'true';
    delete process.env.ALLOW_PRIVATE_HOSTS;
    await ctx().kv.delete(`quota-warning:${f.userId}`);
    await setQuota(50_000_000);
    await setOption('QuotaRemindThreshold', 1000);
  });

  it('mails the user once when the balance falls under their threshold, again only after 2 hours', async () => {
    await setSetting({ notify_type: 'email', quota_warning_threshold: 1_000_000, notification_email: 'alice@example.com' });
    await setQuota(1_000_002);
    await call(); // costs 4: 999 998 left, under 1 000 000
    const mail = await smtp.waitFor('alice@example.com');
    expect(mail.subject).toBe('Test Gateway 额度预警');
    expect(mail.body).toContain('$2.00'); // 999 998 at 500 000 a dollar
    expect(mail.body).toContain('https://gw.example.com/topup');
    expect(mailsTo('alice@example.com')).toBe(1);

    // Within 2 hours: no second mail.
    await call();
    warningClock.now = () => Date.now() + WARNING_INTERVAL_MS - 60_000;
    await call();
    expect(mailsTo('alice@example.com')).toBe(1);

    // Past 2 hours: warned again.
    warningClock.now = () => Date.now() + WARNING_INTERVAL_MS + 1000;
    await call();
    await smtp.waitFor('alice@example.com', { after: smtp.messages.indexOf(mail) + 1 });
    expect(mailsTo('alice@example.com')).toBe(2);
  });

  it('stays silent while the balance is above the threshold', async () => {
    await setSetting({ notify_type: 'email', quota_warning_threshold: 1_000_000, notification_email: 'alice@example.com' });
    const before = mailsTo('alice@example.com');
    await setQuota(1_000_100);
    await call();
    await call();
    expect(mailsTo('alice@example.com')).toBe(before);
  });

  it("falls back to QuotaRemindThreshold and the account's address for users without settings", async () => {
    await f.tg.gateway.ctx.db
      .updateTable('users')
      .set({ setting: null, email: 'alice.account@example.com' })
      .where('id', '=', f.userId)
      .execute();
    f.tg.gateway.ctx.bus.publish('user', String(f.userId));
    await setQuota(3_000_000);
    await call();
    expect(mailsTo('alice.account@example.com')).toBe(0);
    await setOption('QuotaRemindThreshold', 5_000_000);
    await call();
    await smtp.waitFor('alice.account@example.com');
    // 0 turns the warning off.
    await ctx().kv.delete(`quota-warning:${f.userId}`);
    await setOption('QuotaRemindThreshold', 0);
    await call();
    expect(mailsTo('alice.account@example.com')).toBe(1);
  });

  it('posts a webhook signed with HMAC-SHA256 of the body under the user secret', async () => {
    process.env.ALLOW_PRIVATE_HOSTS = '127.0.0.1';
    await setSetting({
      notify_type: 'webhook',
      quota_warning_threshold: 2_000_000,
      webhook_url: receiver.url,
      webhook_secret: SECRET,
    });
    const hooks = receiver.hooks.length;
    await setQuota(1_500_000);
    await call();
    expect(receiver.hooks.length).toBe(hooks + 1);
    const hook = receiver.hooks.at(-1)!;
    expect(signatureValid(hook, SECRET)).toBe(true);
    expect(signatureValid(hook, 'another-secret')).toBe(false);
    const payload = JSON.parse(hook.body);
    expect(payload).toMatchObject({
      type: 'quota_exceed',
      title: 'Test Gateway 额度预警',
      values: { user_id: f.userId, username: 'alice', remaining_quota: 1_499_996, threshold: 2_000_000 },
    });
    expect(payload.content).toContain('$3.00');
    expect(Math.abs(payload.timestamp - Date.now() / 1000)).toBeLessThan(60);
    // The secret itself never travels.
    expect(hook.body).not.toContain(SECRET);

    // Once per 2 hours for webhooks too.
    await call();
    expect(receiver.hooks.length).toBe(hooks + 1);
  });

  it('never delays the answer, even when the webhook receiver is slow', async () => {
    process.env.ALLOW_PRIVATE_HOSTS = '127.0.0.1';
    await setSetting({
      notify_type: 'webhook',
      quota_warning_threshold: 2_000_000,
      webhook_url: receiver.url,
      webhook_secret: SECRET,
    });
    receiver.delayMs = 1500;
    await setQuota(1_500_000);
    const hooks = receiver.hooks.length;
    const started = Date.now();
    await f.openai().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    expect(Date.now() - started).toBeLessThan(1000);
    await quotaWarningsIdle(ctx());
    expect(receiver.hooks.length).toBe(hooks + 1);
  });

  it('refuses a webhook to a private address the operator has not named', async () => {
    process.env.ALLOW_PRIVATE_HOSTS = '127.0.0.1';
    await setSetting({
      notify_type: 'webhook',
      quota_warning_threshold: 2_000_000,
      webhook_url: receiver.url,
      webhook_secret: SECRET,
    });
    // The operator withdraws the trust after the user saved the address; opening channel upstreams
    // does not open webhooks.
    delete process.env.ALLOW_PRIVATE_HOSTS;
    process.env.ALLOW_PRIVATE_UPSTREAMS = 'true';
    const hooks = receiver.hooks.length;
    await setQuota(1_500_000);
    await call();
    await quotaWarningsIdle(ctx());
    expect(receiver.hooks.length).toBe(hooks);
  });
});
