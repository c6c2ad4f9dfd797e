/**
 * Parameters the family treats as absent never reach an upstream: `max_tokens: 0` (a console
 * playground's "no limit") and the bookkeeping keys consoles attach to chat messages (`id`,
 * `createAt` …), which upstreams refuse — whether the request is passed through or converted.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { startReplayServer, type ReplayServer } from '../helpers/upstreams/replay.js';

let f: RelayFixture;
let claude: ReplayServer;

async function post(path: string, body: Record<string, unknown>): Promise<number> {
  const res = await fetch(`${f.tg.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${f.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await res.text();
  return res.status;
}

/** Messages as a console sends them: its own ids and times on each. */
const consoleMessages = [
  { role: 'system', content: 'Be brief.', id: 'm-1', createAt: 1717171717 },
  { role: 'user', content: 'Hi', name: 'bob', id: 'm-2', createdAt: '2024-06-01T00:00:00Z', meta: { pinned: true } },
  { role: 'assistant', content: 'Hello!', id: 'm-3', createAt: 1717171718, reasoning_content: 'greeting' },
  { role: 'user', content: 'Again' },
];
const upstreamMessages = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Hi', name: 'bob' },
  { role: 'assistant', content: 'Hello!', reasoning_content: 'greeting' },
  { role: 'user', content: 'Again' },
];

beforeAll(async () => {
  f = await startRelayFixture('sqlite');
  claude = await startReplayServer('claude', [{ path: /^\/v1\/messages$/, fixture: () => 'message-cache-usage.json' }]);
  const ratios = JSON.parse(f.tg.gateway.ctx.options.raw('ModelRatio'));
  await f.root.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify({ ...ratios, 'claude-sonnet-4-20250514': 1.5 }) });
  await f.addChannel({
    type: 14,
    name: 'claude',
    key: 'sk-ant-upstream',
    base_url: claude.url,
    models: 'claude-sonnet-4-20250514',
  });
});
afterAll(async () => {
  await f?.close();
  await claude?.close();
});

it('leaves out max_tokens 0 and the messages’ bookkeeping keys on a passed-through chat', async () => {
  const status = await post('/v1/chat/completions', {
    model: 'gpt-4o-mini',
    max_tokens: 0,
    max_completion_tokens: 0,
    temperature: 0.5,
    messages: consoleMessages,
  });
  expect(status).toBe(200);
  expect(f.upstream.requests.at(-1)!.body).toEqual({ model: 'gpt-4o-mini', temperature: 0.5, messages: upstreamMessages });
});

it('keeps a real limit and sends a clean body exactly as it came', async () => {
  const body = {
    model: 'gpt-4o-mini',
    max_tokens: 5,
    max_completion_tokens: 7,
    messages: [{ role: 'user', content: 'Hi' }],
    metadata: { keep: 'me' },
  };
  expect(await post('/v1/chat/completions', body)).toBe(200);
  expect(f.upstream.requests.at(-1)!.body).toEqual(body);
});

it('leaves them out of a playground call and of a legacy completion', async () => {
  const pg = await f.user.post('/pg/chat/completions', { model: 'gpt-4o-mini', max_tokens: 0, messages: consoleMessages });
  expect(pg.status).toBe(200);
  expect(f.upstream.requests.at(-1)!.body).toMatchObject({ messages: upstreamMessages });
  expect(f.upstream.requests.at(-1)!.body).not.toHaveProperty('max_tokens');
  expect(await post('/v1/completions', { model: 'gpt-3.5-turbo-instruct', prompt: 'Hi', max_tokens: 0 })).toBe(200);
  expect(f.upstream.requests.at(-1)!.body).toEqual({ model: 'gpt-3.5-turbo-instruct', prompt: 'Hi' });
});

it('converts such a chat for a Claude channel with its default limit and without the extra keys', async () => {
  const status = await post('/v1/chat/completions', {
    model: 'claude-sonnet-4-20250514',
    max_tokens: 0,
    messages: consoleMessages,
  });
  expect(status).toBe(200);
  const sent = claude.requests.at(-1)!.body as Record<string, any>;
  expect(sent.max_tokens).toBeGreaterThan(0);
  expect(JSON.stringify(sent)).not.toMatch(/createAt|createdAt|"id":"m-/);
  expect(sent.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user']);
});

it('sends the body as it came when the admin asks for bodies to pass through untouched', async () => {
  await f.root.put('/api/option/', { key: 'global.pass_through_request_enabled', value: 'true' });
  await f.tg.gateway.ctx.options.reload();
  try {
    const body = { model: 'gpt-4o-mini', max_tokens: 0, messages: consoleMessages };
    expect(await post('/v1/chat/completions', body)).toBe(200);
    expect(f.upstream.requests.at(-1)!.body).toEqual(body);
  } finally {
    await f.root.put('/api/option/', { key: 'global.pass_through_request_enabled', value: 'false' });
  }
});
