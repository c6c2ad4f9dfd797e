/** Shared by the channel API tests: keys that must never leak, and envelope checks. */
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { ApiClient, ApiResponse, TestGateway } from './gateway.js';

/** Every key given to the gateway; none may ever appear in an answer. */
const secrets = new Set<string>();
export function newKey(): string {
  const key = `sk-secret-${randomBytes(12).toString('hex')}`;
  secrets.add(key);
  return key;
}

/** Fails the test if any answer this client receives carries a channel key. */
export function watch(client: ApiClient): ApiClient {
  const request = client.request.bind(client);
  client.request = async <T>(method: string, path: string, body?: unknown, extra?: Record<string, string>) => {
    const res = await request<T>(method, path, body, extra);
    const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
    for (const secret of secrets) {
      if (text.includes(secret)) throw new Error(`${method} ${path} leaked a channel key`);
    }
    return res as ApiResponse<T>;
  };
  return client;
}

export function expectOk(res: ApiResponse) {
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ success: true });
  return res.body.data;
}

export function expectFail(res: ApiResponse, message: string) {
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ success: false, message });
}

/** A user made by root (promoted to admin when asked), logged in, its answers watched for keys. */
export async function makeChannelUser(tg: TestGateway, root: ApiClient, username: string, promote: boolean): Promise<ApiClient> {
  const created = await root.post('/api/user/', { username, password: 'password-123', display_name: username });
  expect(created.body.success).toBe(true);
  if (promote) {
    const promoted = await root.post('/api/user/manage', { id: created.body.data.id, action: 'promote' });
    expect(promoted.body.data.role).toBe(10);
  }
  const client = watch(tg.client());
  expect((await client.login(username, 'password-123')).body.success).toBe(true);
  return client;
}
