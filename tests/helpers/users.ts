/** Users in server tests: the password test users share, and a fresh client logged in as one of them. */
import { expect } from 'vitest';
import type { ApiClient, TestGateway } from './gateway.js';

export const PASSWORD = 'secret-pass-1';

/** A new client logged in as `username`; the test fails when the login is refused. */
export async function loginAs(tg: TestGateway, username: string, password = PASSWORD): Promise<ApiClient> {
  const client = tg.client();
  const res = await client.login(username, password);
  expect(res.body.success, res.body.message).toBe(true);
  return client;
}
