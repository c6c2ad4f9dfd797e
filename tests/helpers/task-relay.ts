/**
 * What the task relay tests (Midjourney, Suno) share on top of the relay fixture: a poller that runs
 * only when asked, a token with a limited quota, the user's and that token's balances, the user's
 * log rows of one type, and calls to the relay with the platform's own key header.
 */
import type { GatewayContext } from '../../server/context.js';
import { startTaskPoller, taskPollerOf, type TaskPoller } from '../../server/tasks/poller.js';
import type { RelayFixture } from './relay-fixture.js';

/** Stops the gateway's own poller (it would race a test's explicit rounds) and starts one that runs only on `pollOnce`. */
export async function pollerOnDemand(ctx: GatewayContext): Promise<TaskPoller> {
  await taskPollerOf(ctx)?.stop();
  return startTaskPoller(ctx, { intervalMs: 0 });
}

/** A new token of the fixture's user holding 1,000,000 quota: its id and sk- key. */
export async function limitedToken(f: RelayFixture): Promise<{ id: number; key: string }> {
  const token = await f.user.post('/api/token/', {
    name: 'limited',
    remain_quota: 1_000_000,
    unlimited_quota: false,
    expired_time: -1,
  });
  const id = token.body.data.id as number;
  return { id, key: (await f.user.post(`/api/token/${id}/key`)).body.data.key as string };
}

/** The fixture user's quota and the token's remaining quota. */
export async function balancesOf(f: RelayFixture, tokenId: number): Promise<{ user: number; token: number }> {
  const db = f.tg.gateway.ctx.db;
  const user = await db.selectFrom('users').select('quota').where('id', '=', f.userId).executeTakeFirstOrThrow();
  const token = await db.selectFrom('tokens').select('remain_quota').where('id', '=', tokenId).executeTakeFirstOrThrow();
  return { user: user.quota, token: token.remain_quota };
}

/** What the fixture user, a token and a channel are recorded to have used (used_quota). */
export async function usedOf(f: RelayFixture, tokenId: number, channelId: number) {
  await f.flush();
  const db = f.tg.gateway.ctx.db;
  const user = await db.selectFrom('users').select('used_quota').where('id', '=', f.userId).executeTakeFirstOrThrow();
  const token = await db.selectFrom('tokens').select('used_quota').where('id', '=', tokenId).executeTakeFirstOrThrow();
  const channel = await db.selectFrom('channels').select('used_quota').where('id', '=', channelId).executeTakeFirstOrThrow();
  return { user: Number(user.used_quota), token: Number(token.used_quota), channel: Number(channel.used_quota) };
}

/** The fixture user's log rows of one type, oldest first, once the queued ones are written. */
export async function userLogs(f: RelayFixture, type: number) {
  await f.flush();
  return f.tg.gateway.ctx.db
    .selectFrom('logs')
    .selectAll()
    .where('user_id', '=', f.userId)
    .where('type', '=', type)
    .orderBy('id')
    .execute();
}

/** A relay call: GET without a body, else a JSON POST, with `auth` headers; the answer parsed when it is JSON. */
export async function callRelay(f: RelayFixture, path: string, body: unknown, auth: Record<string, string>) {
  const res = await fetch(f.tg.url + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed, headers: res.headers };
}
