import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { startReplayServer, type ReplayServer } from '../helpers/upstreams/replay.js';

// `global.pass_through_request_enabled`: on, a channel of the client's own protocol receives the
// client's body as it was sent (no model mapping, no param_override, no stream_options); off, the
// gateway rewrites it. Calls that need converting are converted either way.
describe('pass-through of request bodies', () => {
  let f: RelayFixture;
  let claude: ReplayServer;
  const setPassThrough = async (on: boolean) => {
    const res = await f.root.put('/api/option/', { key: 'global.pass_through_request_enabled', value: on });
    expect(res.body.success).toBe(true);
  };
  const send = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(f.tg.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${f.key}`, ...headers },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    return text;
  };

  beforeAll(async () => {
    f = await startRelayFixture('sqlite');
    claude = await startReplayServer('claude', [{ path: /^\/v1\/messages$/, fixture: () => 'message-text.json' }]);
    const ratios = JSON.parse(f.tg.gateway.ctx.options.raw('ModelRatio'));
    await f.root.put('/api/option/', {
      key: 'ModelRatio',
      value: JSON.stringify({ ...ratios, 'pt-alias': 1, 'claude-alias': 1, 'claude-sonnet-4-20250514': 1.5 }),
    });
    await f.addChannel({
      name: 'mapped',
      models: 'pt-alias',
      model_mapping: JSON.stringify({ 'pt-alias': 'gpt-4o-mini' }),
      param_override: JSON.stringify({ temperature: 0.1 }),
    });
    await f.addChannel({
      type: 14,
      name: 'claude',
      key: 'sk-ant-upstream',
      base_url: claude.url,
      models: 'claude-alias,claude-sonnet-4-20250514',
      model_mapping: JSON.stringify({ 'claude-alias': 'claude-sonnet-4-20250514' }),
    });
  });
  afterAll(async () => {
    await f?.close();
    await claude?.close();
  });

  const chat = { model: 'pt-alias', messages: [{ role: 'user', content: 'Hello!' }], stream: true, top_p: 0.5 };
  const claudeBody = { model: 'claude-alias', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] };

  it('off: the gateway maps the model, applies overrides and asks for stream usage', async () => {
    await setPassThrough(false);
    await send('/v1/chat/completions', chat);
    expect(f.upstream.requests.at(-1)!.body).toEqual({
      ...chat,
      model: 'gpt-4o-mini',
      temperature: 0.1,
      stream_options: { include_usage: true },
    });
    await send('/v1/messages', claudeBody, { 'anthropic-version': '2023-06-01' });
    expect(claude.requests.at(-1)!.body).toEqual({ ...claudeBody, model: 'claude-sonnet-4-20250514' });
  });

  it('on: a channel of the client’s protocol gets the body exactly as the client sent it', async () => {
    await setPassThrough(true);
    const text = await send('/v1/chat/completions', chat);
    expect(text).toContain('data: [DONE]');
    expect(f.upstream.requests.at(-1)!.body).toEqual(chat);
    // Without the usage ask the stream carries none: the completion is counted locally.
    const log = await f.lastLog();
    expect(JSON.parse(log.other ?? '{}').local_count).toBe(true);

    await send('/v1/messages', claudeBody, { 'anthropic-version': '2023-06-01' });
    expect(claude.requests.at(-1)!.body).toEqual(claudeBody);
  });

  it('on: calls in another protocol are still converted', async () => {
    await setPassThrough(true);
    await send('/v1/chat/completions', { model: 'claude-sonnet-4-20250514', messages: [{ role: 'user', content: 'Hi' }] });
    const sent = claude.requests.at(-1)!.body;
    expect(sent).toMatchObject({ model: 'claude-sonnet-4-20250514', messages: [{ role: 'user' }] });
    expect(typeof sent.max_tokens).toBe('number');
  });
});
