/**
 * Passkey ceremonies and two-factor sign-in across two gateway processes behind one address, as a
 * load balancer sends a browser's requests: a ceremony begun on one process finishes on the other,
 * a spent challenge or a used code is refused by both, and a pending sign-in started on one is
 * completed on the other (their state lives in Redis and the database, not in a process).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterAvailable, startCluster, type Cluster, type GatewayNode } from '../helpers/cluster.js';
import { ApiClient, must, ROOT } from '../helpers/gateway.js';
import type { GatewayProcess } from '../helpers/process.js';
import { SoftAuthenticator } from '../helpers/soft-authenticator.js';
import { enableTwoFa, totpCode } from '../helpers/totp.js';

/** The same browser (its cookies) talking to another process. */
function on(node: GatewayProcess, client: ApiClient): ApiClient {
  const moved = new ApiClient(node.url);
  moved.cookie = client.cookie;
  moved.jar = new Map(client.jar);
  moved.userId = client.userId;
  return moved;
}

const ready = await clusterAvailable('postgres');

describe.skipIf(!ready)('second factors across two processes (PostgreSQL + Redis)', () => {
  let cluster: Cluster<GatewayNode>;
  let a: GatewayProcess;
  let b: GatewayProcess;
  let root: ApiClient;

  async function newUser(username: string): Promise<ApiClient> {
    must(await root.post('/api/user/', { username, password: 'pass-of-user-1', display_name: username }), 'user');
    const client = new ApiClient(a.url);
    must(await client.login(username, 'pass-of-user-1'), 'login');
    return client;
  }

  beforeAll(async () => {
    cluster = await startCluster('postgres', ['master', 'slave'], { inProcess: true });
    [a, b] = cluster.nodes as [GatewayProcess, GatewayProcess];
    root = new ApiClient(a.url);
    must(await root.post('/api/setup', { ...ROOT, confirmPassword: ROOT.password }), 'setup');
    must(await root.login(ROOT.username, ROOT.password), 'login');
    // Both processes serve one public address: the ceremonies' origin is that one.
    must(await root.put('/api/option/', { key: 'ServerAddress', value: a.url }), 'address');
  }, 180_000);

  afterAll(async () => cluster?.stop());

  it('registers a passkey begun on one process on the other, signs in likewise, and spends a challenge on both', async () => {
    const user = await newUser('pia');
    const authenticator = new SoftAuthenticator(a.url);
    // Each process reads the address option from the database; wait for B to have it.
    for (let i = 0; i < 50; i++) {
      const begin = await on(b, user).post('/api/user/passkey/register/begin');
      if (begin.body.data?.options?.publicKey?.rp?.id === '127.0.0.1') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const begin = await user.post('/api/user/passkey/register/begin');
    const attestation = authenticator.create(must<any>(begin, 'begin').options.publicKey);
    expect((await on(b, user).post('/api/user/passkey/register/finish', { ...attestation, name: 'Laptop' })).body).toMatchObject({
      success: true,
    });

    const browser = new ApiClient(b.url);
    const loginBegin = must<any>(await browser.post('/api/user/passkey/login/begin'), 'login begin');
    const assertion = authenticator.get(loginBegin.options.publicKey);
    const signedIn = await on(a, browser).post('/api/user/passkey/login/finish', assertion);
    expect(signedIn.body).toMatchObject({ success: true, data: { username: 'pia' } });
    // The same assertion again, on either process: the challenge was spent.
    for (const node of [a, b]) {
      const replay = await on(node, browser).post('/api/user/passkey/login/finish', assertion);
      expect(replay.body).toMatchObject({ success: false, code: 'passkey.ceremony_expired' });
    }
  });

  it('completes a two-factor sign-in begun on one process on the other, and refuses its code on both after', async () => {
    const user = await newUser('tom');
    const { secret } = await enableTwoFa(user);
    const code = totpCode(secret, 1);

    const browser = new ApiClient(a.url);
    const first = await browser.post('/api/user/login', { username: 'tom', password: 'pass-of-user-1' });
    expect(first.body).toMatchObject({ success: true, data: { require_2fa: true } });
    const second = await on(b, browser).post('/api/user/login/2fa', { code });
    expect(second.body).toMatchObject({ success: true, data: { username: 'tom' } });

    // Another sign-in with the code just used, on each process: refused.
    for (const node of [a, b]) {
      const again = new ApiClient(node.url);
      expect((await again.post('/api/user/login', { username: 'tom', password: 'pass-of-user-1' })).body.data).toMatchObject({
        require_2fa: true,
      });
      expect((await again.post('/api/user/login/2fa', { code })).body).toMatchObject({
        success: false,
        code: 'twofa.code_invalid',
      });
    }
  });
});
