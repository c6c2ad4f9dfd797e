/**
 * The playground's relay, POST /pg/chat/completions, against the real gateway and the OpenAI
 * stand-in: a console session instead of an sk- key, the chosen group honoured and billed, a
 * streamed answer that ends with [DONE], and 401 without a valid session.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { OPENAI_FIXTURES } from '../helpers/upstreams/openai.js';

const ask = (model: string, group?: string) => ({
  model,
  ...(group === undefined ? {} : { group }),
  messages: [
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: 'Hello!' },
  ],
  stream: true,
  temperature: 0.5,
});

/** The content deltas of an SSE body, and whether it ended with [DONE]. */
function readStream(text: string): { content: string; done: boolean } {
  let content = '';
  let done = false;
  for (const line of text.split('\n')) {
    if (!line.startsWith('data: ')) continue;
    const data = line.slice(6).trim();
    if (data === '[DONE]') {
      done = true;
      continue;
    }
    const chunk = JSON.parse(data) as { choices?: Array<{ delta?: { content?: string } }> };
    content += chunk.choices?.[0]?.delta?.content ?? '';
  }
  return { content, done };
}

await forEachDatabase('playground relay', (kind) => {
  let f: RelayFixture;
  const quotaOf = async () =>
    (await f.tg.gateway.ctx.db.selectFrom('users').select('quota').where('id', '=', f.userId).executeTakeFirstOrThrow()).quota;

  beforeAll(async () => {
    f = await startRelayFixture(kind);
    await f.root.put('/api/option/', { key: 'GroupRatio', value: JSON.stringify({ default: 1, vip: 2, svip: 5 }) });
    await f.root.put('/api/option/', { key: 'UserUsableGroups', value: JSON.stringify({ default: '默认分组', vip: 'vip分组' }) });
    // drip-3 is served in vip only (besides the fixture's default channel serving everything else).
    await f.addChannel({ name: 'vip', models: 'drip-3', group: 'vip' });
    await f.root.put('/api/option/', {
      key: 'ModelRatio',
      value: JSON.stringify({
        ...JSON.parse((await f.root.get('/api/option/')).body.data.find((o: { key: string }) => o.key === 'ModelRatio').value),
        'drip-3': 1,
      }),
    });
  });
  afterAll(async () => f?.close());

  it('streams the answer to a console session and bills the user', async () => {
    const before = await quotaOf();
    const res = await f.user.post('/pg/chat/completions', ask('gpt-4o-mini', 'default'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const stream = readStream(String(res.body));
    expect(stream.done).toBe(true);
    expect(stream.content).toBe(readStream(OPENAI_FIXTURES.streamChunks.join('')).content);
    expect(stream.content).toMatch(/^Hello! How can I assist you today\?/);
    const log = await f.lastLog();
    expect(log).toMatchObject({ type: 2, model_name: 'gpt-4o-mini', token_name: 'playground', group: 'default', is_stream: 1 });
    expect(log.quota).toBeGreaterThan(0);
    expect(await quotaOf()).toBe(before - log.quota);
    // The upstream never sees the playground's group field.
    expect(f.upstream.requests.at(-1)?.body).not.toHaveProperty('group');
    expect(f.upstream.requests.at(-1)?.body.temperature).toBe(0.5);
  });

  it('uses the chosen group: its channels and its ratio', async () => {
    const res = await f.user.post('/pg/chat/completions', ask('drip-3', 'vip'));
    expect(res.status).toBe(200);
    expect(readStream(String(res.body))).toEqual({ content: 'tick tick tick ', done: true });
    const vipLog = await f.lastLog();
    expect(vipLog.group).toBe('vip');
    expect(JSON.parse(vipLog.other ?? '{}')).toMatchObject({ group_ratio: 2 });
    // (10 prompt + 6 completion × 1) × ratio 1 × group 2.
    expect(vipLog.quota).toBe(32);

    // The same model in the user's own group has no channel.
    const missing = await f.user.post('/pg/chat/completions', ask('drip-3', 'default'));
    expect(missing.status).toBe(503);
    expect(missing.body.error.message).toContain('drip-3');
    // No group: the user's own.
    const own = await f.user.post('/pg/chat/completions', ask('gpt-4o-mini'));
    expect(own.status).toBe(200);
    expect((await f.lastLog()).group).toBe('default');
  });

  it('refuses a group the user may not use, and bills nothing', async () => {
    const before = await quotaOf();
    const res = await f.user.post('/pg/chat/completions', ask('gpt-4o-mini', 'svip'));
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain('svip');
    await f.flush();
    expect(await quotaOf()).toBe(before);
  });

  it('answers 401 without a session or without the matching New-Api-User header', async () => {
    const anonymous = await fetch(`${f.tg.url}/pg/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ask('gpt-4o-mini')),
    });
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error).toBeDefined();
    const forged = await f.user.post('/pg/chat/completions', ask('gpt-4o-mini'), { 'New-Api-User': '999999' });
    expect(forged.status).toBe(401);
    // An sk- key is not a console session.
    const withKey = await fetch(`${f.tg.url}/pg/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${f.key}` },
      body: JSON.stringify(ask('gpt-4o-mini')),
    });
    expect(withKey.status).toBe(401);
  });
});
