/**
 * The error row of a call that was not served says why in a way the console can word: the
 * gateway's own refusal by its code and values (`other.refusal`), an upstream's error in the
 * upstream's words (no code of ours).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { setOptions } from '../helpers/money.js';
import { completeLog } from '../../server/logs/repository.js';

let f: RelayFixture;
beforeAll(async () => {
  f = await startRelayFixture('sqlite');
  await setOptions(f, { RetryTimes: '0' });
});
afterAll(async () => f?.close());

async function errorRows() {
  await f.flush();
  return (
    await f.tg.gateway.ctx.logDb.selectFrom('logs').select(['content', 'other']).where('type', '=', 5).orderBy('id').execute()
  ).map((r) => ({ content: r.content, other: JSON.parse(r.other ?? '{}') }));
}

const chat = (model: string) =>
  fetch(`${f.tg.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${f.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  }).then(async (res) => ({ status: res.status, body: await res.json() }));

it('keeps the code and values of a refusal of the gateway’s own', async () => {
  const channels = await f.root.get('/api/channel/?p=1&page_size=10');
  for (const c of channels.body.data.items) await f.root.put('/api/channel/', { id: c.id, status: 2 });
  await f.tg.gateway.ctx.channels.reload();
  const refused = await chat('gpt-4o-mini');
  expect(refused.status).toBeGreaterThanOrEqual(400);
  const [row] = await errorRows();
  expect(row!.content).toBe(refused.body.error.message);
  expect(row!.other.refusal).toMatchObject({ code: refused.body.error.code });
  for (const c of channels.body.data.items) await f.root.put('/api/channel/', { id: c.id, status: 1 });
  await f.tg.gateway.ctx.channels.reload();
});

it('keeps an upstream’s error in its own words, without a code of ours', async () => {
  const failed = await chat('fail-500');
  expect(failed.status).toBe(500);
  const row = (await errorRows()).at(-1)!;
  expect(row.other.refusal).toBeUndefined();
  expect(row.other.status_code).toBe(500);
});

it('drops NUL characters from a row’s text (a client’s model name, an upstream’s message), which PostgreSQL refuses', () => {
  const row = completeLog({ user_id: 1, created_at: 1, type: 5, content: 'up\u0000stream', model_name: 'm\u0000' });
  expect(row).toMatchObject({ content: 'upstream', model_name: 'm', token_name: '' });
});
