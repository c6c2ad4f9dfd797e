/**
 * Passkeys through the real app with a software authenticator (ES256 keys, `none` attestation in
 * CBOR, tests/helpers/soft-authenticator.ts): registration, sign-in, the checks a relying party
 * owes (challenge spent once, origin, signature, credential owner), verification before sensitive
 * actions, the option that turns ceremonies off, the admins' reset, and the sessions a removed passkey
 * opened ending with it.
 */
import { expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import type { ApiClient } from '../helpers/gateway.js';
import { SoftAuthenticator } from '../helpers/soft-authenticator.js';
import { enableTwoFa, totpCode } from '../helpers/totp.js';
import { usersFixture } from '../helpers/users-fixture.js';
import { PASSWORD } from '../helpers/users.js';

await forEachDatabase('passkeys', (kind) => {
  const f = usersFixture(kind);

  async function register(client: ApiClient, authenticator: SoftAuthenticator, name?: string) {
    const begin = await client.post('/api/user/passkey/register/begin');
    expect(begin.body.success, JSON.stringify(begin.body)).toBe(true);
    const attestation = authenticator.create(begin.body.data.options.publicKey);
    return client.post('/api/user/passkey/register/finish', { ...attestation, ...(name ? { name } : {}) });
  }

  async function signIn(authenticator: SoftAuthenticator, client = f.tg.client()) {
    const begin = await client.post('/api/user/passkey/login/begin');
    expect(begin.body.success, JSON.stringify(begin.body)).toBe(true);
    const res = await client.post('/api/user/passkey/login/finish', authenticator.get(begin.body.data.options.publicKey));
    if (res.body.success && typeof res.body.data?.id === 'number') client.userId = res.body.data.id;
    return { res, client };
  }

  /** Verifies the client's session with its passkey, as the console does before a sensitive action. */
  async function verifyWithPasskey(client: ApiClient, authenticator: SoftAuthenticator) {
    const begin = await client.post('/api/user/passkey/verify/begin');
    expect(begin.body.success, JSON.stringify(begin.body)).toBe(true);
    const finish = await client.post('/api/user/passkey/verify/finish', authenticator.get(begin.body.data.options.publicKey));
    expect(finish.body).toMatchObject({ success: true, data: { verified: true } });
    return client.post('/api/verify', { method: 'passkey' });
  }

  it('registers a passkey for the relying party of ServerAddress and signs in with it', async () => {
    const { id, username, client } = await f.newUser();
    const authenticator = new SoftAuthenticator(f.tg.url);
    const begin = await client.post('/api/user/passkey/register/begin');
    const options = begin.body.data.options.publicKey;
    expect(options.rp.id).toBe('127.0.0.1');
    expect(Buffer.from(options.user.id, 'base64url').toString()).toBe(String(id));
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required' });
    const attestation = authenticator.create(options);
    expect((await client.post('/api/user/passkey/register/finish', { ...attestation, name: 'Laptop' })).body.success).toBe(true);
    // The challenge was spent by that finish.
    const replay = await client.post('/api/user/passkey/register/finish', attestation);
    expect(replay.body).toMatchObject({ success: false, code: 'passkey.ceremony_expired' });

    const list = await client.get('/api/user/passkey');
    expect(list.body.data).toMatchObject({ enabled: true, last_used_at: 0 });
    expect(list.body.data.passkeys).toEqual([
      expect.objectContaining({ name: 'Laptop', last_used_at: 0, backed_up: false, transports: ['internal'] }),
    ]);

    const { res, client: browser } = await signIn(authenticator);
    expect(res.body).toMatchObject({ success: true, data: { id, username } });
    expect((await browser.get('/api/user/self')).body.data.username).toBe(username);
    const row = await f.db().selectFrom('passkeys').selectAll().where('user_id', '=', id).executeTakeFirstOrThrow();
    expect(row.sign_count).toBe(1);
    expect(row.last_used_at).toBeGreaterThan(0);
    expect(row.credential_id).toBe(attestation.id);
  });

  it('refuses a spent challenge, another origin, a forged signature, a stolen counter and unknown credentials', async () => {
    const { client } = await f.newUser();
    const authenticator = new SoftAuthenticator(f.tg.url);
    expect((await register(client, authenticator)).body.success).toBe(true);

    const begin = await f.tg.client().post('/api/user/passkey/login/begin');
    const assertion = authenticator.get(begin.body.data.options.publicKey);
    expect((await f.tg.client().post('/api/user/passkey/login/finish', assertion)).body.success).toBe(true);
    const replay = await f.tg.client().post('/api/user/passkey/login/finish', assertion);
    expect(replay.body).toMatchObject({ success: false, code: 'passkey.ceremony_expired' });

    // A phishing page at another origin relays the challenge: the client data names the wrong origin.
    authenticator.origin = 'https://gateway.example.evil';
    const phished = await signIn(authenticator);
    expect(phished.res.body).toMatchObject({ success: false, code: 'passkey.verification_failed' });
    authenticator.origin = f.tg.url;

    const forgedBegin = await f.tg.client().post('/api/user/passkey/login/begin');
    const forged = authenticator.get(forgedBegin.body.data.options.publicKey) as { response: { signature: string } };
    const sig = Buffer.from(forged.response.signature, 'base64url');
    sig.writeUInt8(sig.readUInt8(sig.length - 1) ^ 1, sig.length - 1);
    forged.response.signature = sig.toString('base64url');
    const forgedRes = await f.tg.client().post('/api/user/passkey/login/finish', forged);
    expect(forgedRes.body).toMatchObject({ success: false, code: 'passkey.verification_failed' });

    // A cloned authenticator replays an old counter.
    authenticator.credentials[0]!.counter = 0;
    expect((await signIn(authenticator)).res.body.code).toBe('passkey.verification_failed');
    authenticator.credentials[0]!.counter = 10;
    expect((await signIn(authenticator)).res.body.success).toBe(true);

    const stranger = new SoftAuthenticator(f.tg.url);
    stranger.create({ rp: { id: '127.0.0.1' }, user: { id: 'MQ' }, challenge: 'x' });
    expect((await signIn(stranger)).res.body.code).toBe('passkey.unknown_credential');
  });

  it('asks for a fresh verification before a second passkey and before removing one', async () => {
    const { id, client } = await f.newUser();
    const phone = new SoftAuthenticator(f.tg.url);
    const laptop = new SoftAuthenticator(f.tg.url);
    expect((await register(client, phone, 'Phone')).body.success).toBe(true);

    const blocked = await client.post('/api/user/passkey/register/begin');
    expect(blocked.body).toMatchObject({ success: false, code: 'verify.required' });
    // One passkey assertion completes one verification.
    const verified = await verifyWithPasskey(client, phone);
    expect(verified.body).toMatchObject({ success: true, data: { verified: true } });
    expect((await client.post('/api/verify', { method: 'passkey' })).body.code).toBe('verify.passkey_required');
    expect((await register(client, laptop, 'Laptop')).body.success).toBe(true);

    const list = (await client.get('/api/user/passkey')).body.data.passkeys as Array<{ id: number; name: string }>;
    expect(list.map((p) => p.name)).toEqual(['Phone', 'Laptop']);

    // Another session of the same user is not verified; this one is, for five minutes.
    const { client: other } = await signIn(laptop);
    expect((await other.delete(`/api/user/passkey/${list[0]!.id}`)).body.code).toBe('verify.required');
    expect((await other.delete('/api/user/passkey')).body.code).toBe('verify.required');
    expect((await client.delete(`/api/user/passkey/${list[0]!.id}`)).body.success).toBe(true);
    expect((await client.delete(`/api/user/passkey/${list[0]!.id}`)).body.code).toBe('passkey.not_found');
    expect((await signIn(phone)).res.body.code).toBe('passkey.unknown_credential');

    // An access-token client cannot hold a fresh verification.
    const token = (await client.get('/api/user/token')).body.data as string;
    const api = f.tg.client();
    api.headers = { Authorization: token, 'New-Api-User': String(id) };
    expect((await api.post('/api/verify', { method: 'passkey' })).body.code).toBe('verify.session_required');
    expect((await api.delete('/api/user/passkey')).body.code).toBe('verify.required');

    expect((await client.delete('/api/user/passkey')).body.success).toBe(true);
    expect((await client.get('/api/user/passkey')).body.data).toEqual({ enabled: false, last_used_at: 0, passkeys: [] });
  });

  it('ends the sessions a passkey opened when its owner removes it, keeping the owner’s own', async () => {
    const { client } = await f.newUser();
    const laptop = new SoftAuthenticator(f.tg.url);
    expect((await register(client, laptop, 'Laptop')).body.success).toBe(true);
    const { client: opened } = await signIn(laptop);
    expect((await opened.get('/api/user/self')).status).toBe(200);

    await verifyWithPasskey(client, laptop);
    const [passkey] = (await client.get('/api/user/passkey')).body.data.passkeys as Array<{ id: number }>;
    expect((await client.delete(`/api/user/passkey/${passkey!.id}`)).body.success).toBe(true);
    expect((await opened.get('/api/user/self')).status).toBe(401);
    // This browser goes on, still freshly verified: the next removal finds nothing to remove.
    expect((await client.get('/api/user/self')).status).toBe(200);
    expect((await client.delete('/api/user/passkey')).body.code).toBe('passkey.not_bound');

    // Removing all of them at once does the same.
    expect((await register(client, laptop, 'Laptop again')).body.success).toBe(true);
    const { client: again } = await signIn(laptop);
    await verifyWithPasskey(client, laptop);
    expect((await client.delete('/api/user/passkey')).body.success).toBe(true);
    expect((await again.get('/api/user/self')).status).toBe(401);
    expect((await client.get('/api/user/self')).status).toBe(200);
  });

  it('ends every session of a user whose passkeys an admin resets', async () => {
    const { id, client } = await f.newUser();
    const key = new SoftAuthenticator(f.tg.url);
    expect((await register(client, key)).body.success).toBe(true);
    const { client: opened } = await signIn(key);
    expect((await opened.get('/api/user/self')).status).toBe(200);
    expect((await f.admin.delete(`/api/user/${id}/reset_passkey`)).body.success).toBe(true);
    expect((await opened.get('/api/user/self')).status).toBe(401);
    expect((await client.get('/api/user/self')).status).toBe(401);
    // A reset that finds nothing ends nothing.
    const { id: freshId, client: fresh } = await f.newUser();
    expect((await f.admin.delete(`/api/user/${freshId}/reset_passkey`)).body.code).toBe('passkey.not_bound');
    expect((await fresh.get('/api/user/self')).status).toBe(200);
  });

  it('asks for the second factor after a passkey that did not verify its holder', async () => {
    const { username, client } = await f.newUser();
    const { secret, backupCodes } = await enableTwoFa(client);
    const key = new SoftAuthenticator(f.tg.url, { userVerification: false });
    // The account has a second factor: adding a passkey takes a fresh verification.
    expect((await client.post('/api/verify', { method: '2fa', code: totpCode(secret, 1) })).body.success).toBe(true);
    expect((await register(client, key)).body.success).toBe(true);

    const { res, client: browser } = await signIn(key);
    expect(res.body).toMatchObject({ success: true, data: { require_2fa: true } });
    expect(browser.cookie).toBe('');
    const done = await browser.post('/api/user/login/2fa', { code: backupCodes[0] });
    expect(done.body).toMatchObject({ success: true, data: { username } });
  });

  it('turns the ceremonies off with passkey.enabled, and admins reset the passkeys of users below them', async () => {
    const { id, username, client } = await f.newUser();
    const authenticator = new SoftAuthenticator(f.tg.url);
    expect((await register(client, authenticator)).body.success).toBe(true);

    expect((await f.root.put('/api/option/', { key: 'passkey.enabled', value: 'false' })).body.success).toBe(true);
    try {
      expect((await f.tg.client().post('/api/user/passkey/login/begin')).body.code).toBe('passkey.disabled');
      expect((await f.tg.client().get('/api/status')).body.data.passkey_login).toBe(false);
    } finally {
      expect((await f.root.put('/api/option/', { key: 'passkey.enabled', value: 'true' })).body.success).toBe(true);
    }

    expect((await f.admin2.delete(`/api/user/${f.admin.userId}/reset_passkey`)).body.code).toBe('user.update_denied');
    expect((await f.admin.delete(`/api/user/${id}/reset_passkey`)).body.success).toBe(true);
    expect((await f.admin.delete(`/api/user/${id}/reset_passkey`)).body.code).toBe('passkey.not_bound');
    expect((await signIn(authenticator)).res.body.code).toBe('passkey.unknown_credential');
    expect((await f.tg.client().login(username, PASSWORD)).body.success).toBe(true);
  });
});
