/**
 * Two-factor sign-in with TOTP through the real app: enrolment (the secret and backup codes shown
 * once, the first code confirms), the password login that asks for a code bound to this browser,
 * codes computed with otpauth as an authenticator app does, each TOTP step and each backup code
 * accepted once, wrong codes counted toward the account lock, disabling, regenerating backup codes,
 * fresh verification before deleting the account, and the admins' reset.
 */
import { describe, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { setupRoot, startTestGateway, type ApiClient } from '../helpers/gateway.js';
import { enableTwoFa, totpCode } from '../helpers/totp.js';
import { usersFixture } from '../helpers/users-fixture.js';
import { loginAs, PASSWORD } from '../helpers/users.js';

await forEachDatabase('two-factor sign-in', (kind) => {
  const f = usersFixture(kind);

  /** A password login that stops at the second step: the answer, and the browser that holds it. */
  async function firstStep(username: string): Promise<ApiClient> {
    const client = f.tg.client();
    const res = await client.post('/api/user/login', { username, password: PASSWORD });
    expect(res.body).toMatchObject({ success: true, data: { require_2fa: true } });
    expect(client.cookie, 'no session before the code').toBe('');
    return client;
  }

  async function secondStep(client: ApiClient, code: string) {
    const res = await client.post('/api/user/login/2fa', { code });
    if (res.body.success) client.userId = res.body.data.id;
    return res;
  }

  it('enrols with a secret and backup codes shown once, confirmed by a first code', async () => {
    const { id, username, client } = await f.newUser();
    const otherDevice = await loginAs(f.tg, username);
    const setup = await client.post('/api/user/2fa/setup');
    expect(setup.body.success).toBe(true);
    const { secret, qr_code_data: uri, backup_codes: codes } = setup.body.data;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toMatch(/^otpauth:\/\/totp\//);
    expect(new URL(uri).searchParams.get('secret')).toBe(secret);
    expect(uri).toContain(encodeURIComponent(username));
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);

    expect((await client.get('/api/user/2fa/status')).body.data).toMatchObject({ enabled: false });
    const wrong = await client.post('/api/user/2fa/enable', { code: totpCode(secret, 5) });
    expect(wrong.body).toMatchObject({ success: false, code: 'twofa.code_invalid' });
    expect((await client.post('/api/user/2fa/enable', { code: totpCode(secret) })).body.success).toBe(true);

    const status = await client.get('/api/user/2fa/status');
    expect(status.body.data).toEqual({ enabled: true, locked: false, backup_codes_remaining: 10 });
    // Never again: neither the status, the profile nor a second setup hands the secret out.
    for (const res of [status, await client.get('/api/user/self'), await client.post('/api/user/2fa/setup')]) {
      expect(JSON.stringify(res.body)).not.toContain(secret);
    }
    expect((await client.post('/api/user/2fa/setup')).body.code).toBe('twofa.already_enabled');

    // Stored: the secret for checking codes, the backup codes only as digests.
    const stored = await f.db().selectFrom('two_fa_backup_codes').selectAll().where('user_id', '=', id).execute();
    expect(stored).toHaveLength(10);
    for (const row of stored) {
      expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(codes.map((c: string) => c.replace(/-/g, ''))).not.toContain(row.code_hash);
    }
    const logs = await f.db().selectFrom('logs').select('content').where('user_id', '=', id).execute();
    expect(JSON.stringify(logs)).not.toContain(secret);

    // Turning a factor on ends the account's other sessions; this browser goes on.
    expect((await otherDevice.get('/api/user/self')).status).toBe(401);
    expect((await client.get('/api/user/self')).body.success).toBe(true);
  });

  it('signs in with the password and then a TOTP code, each code once, only in the browser that began', async () => {
    const { username, client } = await f.newUser();
    const { secret, enabledWith } = await enableTwoFa(client);

    const browser = await firstStep(username);
    expect((await browser.get('/api/user/self')).status).toBe(401);
    // Another browser has no pending sign-in to finish, even with the right code.
    const stranger = await secondStep(f.tg.client(), totpCode(secret, 1));
    expect(stranger.body).toMatchObject({ success: false, code: 'twofa.login_expired' });

    expect((await secondStep(browser, '000000')).body).toMatchObject({ success: false, code: 'twofa.code_invalid' });
    // Codes are taken as strings seen once: the replays below reuse these exact strings (a code
    // computed anew could belong to a later step by then).
    const code = totpCode(secret, 1);
    const done = await secondStep(browser, code);
    expect(done.body).toMatchObject({ success: true, data: { username } });
    expect((await browser.get('/api/user/self')).body.data.username).toBe(username);
    // The pending sign-in is spent with it.
    expect((await secondStep(browser, code)).body.code).toBe('twofa.login_expired');

    // The code of an accepted step (or an earlier one) is refused: a code seen over a shoulder is worthless.
    const again = await firstStep(username);
    expect((await secondStep(again, code)).body.code).toBe('twofa.code_invalid');
    expect((await secondStep(again, enabledWith)).body.code).toBe('twofa.code_invalid');
  });

  it('takes each backup code once, however it is typed', async () => {
    const { username, client } = await f.newUser();
    const { backupCodes } = await enableTwoFa(client);
    const [first, second] = backupCodes as [string, string];

    const browser = await firstStep(username);
    expect((await secondStep(browser, first)).body.success).toBe(true);
    const again = await firstStep(username);
    expect((await secondStep(again, first)).body).toMatchObject({ success: false, code: 'twofa.code_invalid' });
    const typed = second.toLowerCase().replace(/-/g, ' ');
    expect((await secondStep(again, typed)).body.success).toBe(true);
    expect((await client.get('/api/user/2fa/status')).body.data.backup_codes_remaining).toBe(8);
  });

  it('regenerates backup codes with a TOTP code only, and the old ones stop working', async () => {
    const { username, client } = await f.newUser();
    const { secret, backupCodes } = await enableTwoFa(client);
    const byBackup = await client.post('/api/user/2fa/backup_codes', { code: backupCodes[0] });
    expect(byBackup.body).toMatchObject({ success: false, code: 'twofa.code_invalid' });
    const fresh = await client.post('/api/user/2fa/backup_codes', { code: totpCode(secret, 1) });
    expect(fresh.body.success).toBe(true);
    expect(fresh.body.data.backup_codes).toHaveLength(10);
    const browser = await firstStep(username);
    expect((await secondStep(browser, backupCodes[1]!)).body.code).toBe('twofa.code_invalid');
    expect((await secondStep(browser, fresh.body.data.backup_codes[0])).body.success).toBe(true);
  });

  it('disables with a code, or with a fresh verification, never on the session alone', async () => {
    const { username, client } = await f.newUser();
    const { secret } = await enableTwoFa(client);
    expect((await client.post('/api/user/2fa/disable', {})).body).toMatchObject({ success: false, code: 'verify.required' });
    expect((await client.post('/api/user/2fa/disable', { code: '123456' })).body.code).toBe('twofa.code_invalid');
    expect((await client.get('/api/user/2fa/status')).body.data.enabled).toBe(true);

    // A verification of this session (here by a TOTP code) lets the next five minutes do without one.
    const verified = await client.post('/api/verify', { method: '2fa', code: totpCode(secret, 1) });
    expect(verified.body).toMatchObject({ success: true, data: { verified: true } });
    expect(verified.body.data.expires_at).toBeGreaterThan(Date.now() / 1000 + 250);
    expect((await client.post('/api/user/2fa/disable', {})).body.success).toBe(true);
    expect((await client.get('/api/user/2fa/status')).body.data).toEqual({
      enabled: false,
      locked: false,
      backup_codes_remaining: 0,
    });
    await loginAs(f.tg, username);

    // With a backup code in the request itself.
    const second = await f.newUser();
    const codes = (await enableTwoFa(second.client)).backupCodes;
    expect((await second.client.post('/api/user/2fa/disable', { code: codes[3] })).body.success).toBe(true);
  });

  it('asks an enrolled user for a fresh verification before deleting the account, in that session only', async () => {
    const { username, client } = await f.newUser();
    const { secret, backupCodes } = await enableTwoFa(client);
    expect((await client.delete('/api/user/self')).body).toMatchObject({ success: false, code: 'verify.required' });
    expect((await client.post('/api/verify', { method: '2fa', code: '' })).body.code).toBe('verify.code_required');
    expect((await client.post('/api/verify', { method: 'passkey' })).body.code).toBe('verify.passkey_required');
    expect((await client.post('/api/verify', { method: '2fa', code: '654321' })).body.code).toBe('twofa.code_invalid');

    const other = await firstStep(username);
    expect((await secondStep(other, totpCode(secret, 1))).body.success).toBe(true);
    expect((await other.post('/api/verify', { method: '2fa', code: backupCodes[0] })).body.success).toBe(true);
    // The other session's verification is not this one's.
    expect((await client.delete('/api/user/self')).body.code).toBe('verify.required');
    expect((await other.delete('/api/user/self')).body.success).toBe(true);
    expect((await client.get('/api/user/self')).status).toBe(401);
  });

  it('lets an admin reset the two-factor sign-in of a user below them, ending that user’s sessions', async () => {
    const { id, username, client } = await f.newUser();
    await enableTwoFa(client);
    const adminId = f.admin.userId!;
    await enableTwoFa(f.admin);

    expect((await f.admin2.delete(`/api/user/${adminId}/2fa`)).body).toMatchObject({
      success: false,
      code: 'user.update_denied',
    });
    expect((await f.admin.delete(`/api/user/${adminId}/2fa`)).body.code).toBe('user.update_denied');
    const stats = await f.admin.get('/api/user/2fa/stats');
    expect(stats.body.data.enabled_users).toBeGreaterThanOrEqual(2);
    expect(stats.body.data.enabled_rate).toMatch(/^\d+\.\d%$/);

    expect((await f.admin.delete(`/api/user/${id}/2fa`)).body.success).toBe(true);
    expect((await client.get('/api/user/self')).status).toBe(401);
    await loginAs(f.tg, username);
    expect((await f.admin.delete(`/api/user/${id}/2fa`)).body.code).toBe('twofa.not_enabled');
    const logs = await f.db().selectFrom('logs').select(['type', 'content']).where('user_id', '=', id).execute();
    expect(logs.some((l) => l.type === 3 && l.content?.includes('两步验证'))).toBe(true);
    expect((await f.root.delete(`/api/user/${adminId}/2fa`)).body.success).toBe(true);
  });
});

describe('wrong second-factor codes lock the account', () => {
  it('refuses every code, and the password, once the limit of failures is reached', async () => {
    const tg = await startTestGateway('sqlite', { LOGIN_FAILURE_LIMIT: '3', LOGIN_FAILURE_LIMIT_DURATION: '120' });
    try {
      const root = await setupRoot(tg);
      expect((await root.post('/api/user/', { username: 'eve', password: PASSWORD })).body.success).toBe(true);
      const eve = await loginAs(tg, 'eve');
      const { secret } = await enableTwoFa(eve);
      const browser = tg.client();
      expect((await browser.login('eve', PASSWORD)).body.data).toEqual({ require_2fa: true });
      for (const code of ['111111', '222222', '333333']) {
        expect((await browser.post('/api/user/login/2fa', { code })).body.code).toBe('twofa.code_invalid');
      }
      const locked = await browser.post('/api/user/login/2fa', { code: totpCode(secret, 1) });
      expect(locked.status).toBe(429);
      expect(locked.body.code).toBe('account.locked');
      expect((await tg.client().login('eve', PASSWORD)).body.code).toBe('account.locked');
      expect((await eve.get('/api/user/2fa/status')).body.data.locked).toBe(true);
    } finally {
      await tg.close();
    }
  });
});
