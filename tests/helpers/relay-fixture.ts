/**
 * A gateway with an OpenAI stand-in behind it: root, one user with a token, and channels pointing
 * at the stand-in — the ground every relay test stands on.
 */
import OpenAI from 'openai';
import type { Selectable } from 'kysely';
import type { LogsTable } from '../../server/db/types.js';
import { startOpenAIStandIn, type OpenAIStandIn } from './upstreams/openai.js';
import { flushWrites, must, setupRoot, startTestGateway, type ApiClient, type TestGateway } from './gateway.js';
import type { DbName } from './databases.js';

export interface RelayFixture {
  tg: TestGateway;
  upstream: OpenAIStandIn;
  root: ApiClient;
  user: ApiClient;
  userId: number;
  /** The key of the user's first token as revealed (without `sk-`; the relay takes both). */
  key: string;
  tokenId: number;
  openai(key?: string): OpenAI;
  addChannel(fields: Record<string, unknown>): Promise<number>;
  /** Writes queued logs and counters now. */
  flush(): Promise<void>;
  /** The user's newest log row, after a flush. */
  lastLog(): Promise<Selectable<LogsTable>>;
  close(): Promise<void>;
}

export const RELAY_MODELS = [
  'gpt-4o-mini',
  'gpt-3.5-turbo-instruct',
  'text-embedding-3-small',
  'fail-500',
  'fail-429',
  'fail-400',
  'no-usage',
  'drip-60',
  'slow-300',
];

export async function startRelayFixture(
  kind: DbName = 'sqlite',
  opts: { userQuota?: number; env?: Record<string, string>; logs?: DbName } = {},
): Promise<RelayFixture> {
  const upstream = await startOpenAIStandIn();
  const tg = await startTestGateway(kind, opts.env, opts.logs);
  const root = await setupRoot(tg);
  // Prices for the stand-in's special models.
  const ratios = {
    ...JSON.parse((await root.get('/api/option/')).body.data.find((o: { key: string }) => o.key === 'ModelRatio').value),
  };
  for (const m of RELAY_MODELS) ratios[m] ??= 1;
  must(await root.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify(ratios) }), 'ModelRatio');

  const addChannel = async (fields: Record<string, unknown>) => {
    const created = must<{ id: number }>(
      await root.post('/api/channel/', {
        type: 1,
        name: 'stand-in',
        key: 'sk-upstream-good',
        base_url: upstream.url,
        models: RELAY_MODELS.join(','),
        group: 'default',
        ...fields,
      }),
      'create channel',
    );
    await tg.gateway.ctx.channels.reload();
    return created.id;
  };
  await addChannel({});

  must(await root.post('/api/user/', { username: 'alice', password: 'alice-pass-1', display_name: 'Alice' }), 'create user');
  const found = must<{ items: Array<{ id: number; quota: number }> }>(
    await root.get('/api/user/search?keyword=alice'),
    'find user',
  );
  const userId = found.items[0]!.id;
  must(
    await root.put('/api/user/', {
      id: userId,
      username: 'alice',
      display_name: 'Alice',
      quota: opts.userQuota ?? 50_000_000,
      group: 'default',
    }),
    'set quota',
  );
  const user = tg.client();
  must(await user.login('alice', 'alice-pass-1'), 'login');
  const token = must<{ id: number }>(
    await user.post('/api/token/', { name: 'main', remain_quota: 0, unlimited_quota: true, expired_time: -1 }),
    'create token',
  );
  const key = must<{ key: string }>(await user.post(`/api/token/${token.id}/key`), 'reveal').key;

  return {
    tg,
    upstream,
    root,
    user,
    userId,
    key,
    tokenId: token.id,
    openai: (k = key) => new OpenAI({ apiKey: k, baseURL: `${tg.url}/v1`, maxRetries: 0 }),
    addChannel,
    flush: () => flushWrites(tg),
    async lastLog() {
      await flushWrites(tg);
      return tg.gateway.ctx.logDb
        .selectFrom('logs')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
    },
    async close() {
      await tg.close();
      await upstream.close();
    },
  };
}

/** Streams a one-message chat with usage asked for; returns the joined text and the usage chunk. */
export async function streamChat(
  client: OpenAI,
  model: string,
  content: string,
): Promise<{ text: string; usage: OpenAI.CompletionUsage | undefined }> {
  const stream = await client.chat.completions.create({
    model,
    messages: [{ role: 'user', content }],
    stream: true,
    stream_options: { include_usage: true },
  });
  let text = '';
  let usage: OpenAI.CompletionUsage | undefined;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta?.content ?? '';
    if (chunk.usage) usage = chunk.usage;
  }
  return { text, usage };
}
