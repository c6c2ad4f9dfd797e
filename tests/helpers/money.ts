/** What the money tests read and do: balances with their log rows, streamed calls, tokens, options. */
import type { Selectable } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database, LogsTable } from '../../server/db/types.js';
import type { RelayFixture } from './relay-fixture.js';

type Log = Selectable<LogsTable>;

export interface StreamedCall {
  status: number;
  /** The error code of a refused call. */
  code: string | null;
  /** Data events received. */
  chunks: number;
  /** The stream reached `data: [DONE]` and ended cleanly. */
  complete: boolean;
}

/** A streamed chat call read to its end (or to the point where the connection broke). */
export async function streamChat(baseUrl: string, key: string, model: string, extra: object = {}): Promise<StreamedCall> {
  const res = await fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello!' }], stream: true, ...extra }),
  });
  if (res.status !== 200) {
    const body = (await res.json().catch(() => null)) as { error?: { code?: string } } | null;
    return { status: res.status, code: body?.error?.code ?? null, chunks: 0, complete: false };
  }
  let text = '';
  let broken = false;
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    broken = true;
  }
  const complete = !broken && text.includes('data: [DONE]');
  const chunks = text.split('\n\n').filter((e) => e.startsWith('data: {') && e.includes('"delta":{"content"')).length;
  return { status: 200, code: null, chunks, complete };
}

/** Sets options as root, failing the test on a refusal. */
export async function setOptions(f: RelayFixture, options: Record<string, string>): Promise<void> {
  for (const [key, value] of Object.entries(options)) {
    const res = await f.root.put('/api/option/', { key, value });
    if (!res.body.success) throw new Error(`${key}: ${res.body.message}`);
  }
}

/** A new token of the fixture's user, with its `sk-` key. */
export async function tokenWith(
  f: RelayFixture,
  fields: { remain_quota: number; unlimited_quota: boolean },
): Promise<{ id: number; key: string }> {
  const created = await f.user.post('/api/token/', { name: `t${Date.now() % 100000}`, expired_time: -1, ...fields });
  if (!created.body.success) throw new Error(created.body.message);
  const id = created.body.data.id as number;
  const key = (await f.user.post(`/api/token/${id}/key`)).body.data.key as string;
  return { id, key };
}

export interface Money {
  user: { quota: number; used_quota: number; request_count: number };
  token: { remain_quota: number; used_quota: number } | null;
  consume: Log[];
  refunds: Log[];
  /** Consume rows minus refund rows: what the logs say the balance lost. */
  logged: number;
  /** Reservation rows still held. */
  reservations: number;
}

/** A user's balance and counters, a token's, and the log rows of that token, read from the database. */
export async function moneyOf(f: RelayFixture, userId: number, tokenId: number): Promise<Money> {
  return readMoney(f.tg.gateway.ctx.db, userId, tokenId, f.tg.gateway.ctx.logDb);
}

/** `logDb`: where the log rows are (LOG_SQL_DSN's database), when not in `db`. */
export async function readMoney(db: Kysely<Database>, userId: number, tokenId: number, logDb = db): Promise<Money> {
  const user = await db
    .selectFrom('users')
    .select(['quota', 'used_quota', 'request_count'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const token =
    (await db.selectFrom('tokens').select(['remain_quota', 'used_quota']).where('id', '=', tokenId).executeTakeFirst()) ?? null;
  const logs = await logDb.selectFrom('logs').selectAll().where('token_id', '=', tokenId).orderBy('id').execute();
  const consume = logs.filter((l) => l.type === 2);
  const refunds = logs.filter((l) => l.type === 6);
  const sum = (rows: Log[]) => rows.reduce((s, l) => s + Number(l.quota), 0);
  const reservations = (await db.selectFrom('reservations').select('id').execute()).length;
  return {
    user: { quota: Number(user.quota), used_quota: Number(user.used_quota), request_count: Number(user.request_count) },
    token: token && { remain_quota: Number(token.remain_quota), used_quota: Number(token.used_quota) },
    consume,
    refunds,
    logged: sum(consume) - sum(refunds),
    reservations,
  };
}
