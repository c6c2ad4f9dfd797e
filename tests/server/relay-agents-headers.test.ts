import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFidelityFixture, type FidelityFixture } from '../helpers/fidelity-fixture.js';
import { startResponsesStandIn, type ResponsesStandIn } from '../helpers/upstreams/openai-responses.js';
import { AGENTS } from '../helpers/agent-rounds.js';
import { setOptions } from '../helpers/money.js';

type Json = Record<string, any>;

const ADMIN_BETA = 'context-1m-2025-08-07';

// What agents send beside the body: Claude's betas from clients of any format (and in the body, as
// clients written for Bedrock send them), and the agents' session headers, each passed to the
// upstream that reads it and to no other.
describe('agents’ betas and session headers', () => {
  let f: FidelityFixture;
  let responses: ResponsesStandIn;
  beforeAll(async () => {
    f = await startFidelityFixture();
    responses = await startResponsesStandIn(f.chat.url);
    const ratios = JSON.parse(f.tg.gateway.ctx.options.raw('ModelRatio'));
    await setOptions(f, {
      ModelRatio: JSON.stringify({ ...ratios, 'gpt-5-codex': 0.5 }),
      'claude.model_headers_settings': JSON.stringify({ 'claude-sonnet-4-5': { 'anthropic-beta': ADMIN_BETA } }),
    });
    await f.addChannel({ type: 1, name: 'responses', key: 'sk-openai-2', base_url: responses.url, models: 'gpt-5-codex' });
  });
  afterAll(async () => {
    await f?.close();
    await responses?.close();
  });

  async function post(path: string, headers: Record<string, string>, body: Json): Promise<{ status: number; body: Json }> {
    const res = await fetch(`${f.tg.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  }

  it('an OpenAI chat or Gemini client’s anthropic-beta reaches a Claude channel, joined to the admin’s', async () => {
    const chat = await post(
      '/v1/chat/completions',
      { authorization: `Bearer ${f.key}`, 'anthropic-beta': `interleaved-thinking-2025-05-14,${ADMIN_BETA}` },
      AGENTS['qwen-code'].first('claude-sonnet-4-5'),
    );
    expect(chat.status, JSON.stringify(chat.body)).toBe(200);
    expect(f.claude.requests.at(-1)!.headers['anthropic-beta']).toBe(`${ADMIN_BETA},interleaved-thinking-2025-05-14`);
    const gemini = await post(
      '/v1beta/models/claude-sonnet-4-20250514:generateContent',
      { 'x-goog-api-key': f.key, 'anthropic-beta': 'interleaved-thinking-2025-05-14' },
      AGENTS['gemini-cli'].first(''),
    );
    expect(gemini.status, JSON.stringify(gemini.body)).toBe(200);
    expect(f.claude.requests.at(-1)!.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14');
    // An OpenAI upstream has no use for it.
    const openai = await post(
      '/v1/chat/completions',
      { authorization: `Bearer ${f.key}`, 'anthropic-beta': 'interleaved-thinking-2025-05-14' },
      AGENTS['qwen-code'].first('gpt-4.1'),
    );
    expect(openai.status).toBe(200);
    expect(f.chat.requests.at(-1)!.headers['anthropic-beta']).toBeUndefined();
  });

  it('a Claude body’s anthropic_beta (Bedrock’s field) goes to Anthropic as the header, out of the body', async () => {
    const body = { ...AGENTS['claude-code'].first('claude-sonnet-4-20250514'), anthropic_beta: ['context-1m-2025-08-07'] };
    const res = await post(
      '/v1/messages',
      { 'x-api-key': f.key, 'anthropic-version': '2023-06-01', 'anthropic-beta': 'interleaved-thinking-2025-05-14' },
      body,
    );
    // The stand-in refuses fields Anthropic does not take: anthropic_beta among them.
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const sent = f.claude.requests.at(-1)!;
    expect(sent.body.anthropic_beta).toBeUndefined();
    expect(sent.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14,context-1m-2025-08-07');
  });

  it('Claude Code’s session header reaches Anthropic and no other upstream', async () => {
    const headers = { 'x-api-key': f.key, 'anthropic-version': '2023-06-01', 'x-claude-code-session-id': 'f241dc16-ea75' };
    for (const model of ['claude-sonnet-4-5', 'gpt-4.1']) {
      const res = await post('/v1/messages', headers, AGENTS['claude-code'].first(model));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    expect(f.claude.requests.at(-1)!.headers['x-claude-code-session-id']).toBe('f241dc16-ea75');
    expect(f.chat.requests.at(-1)!.headers['x-claude-code-session-id']).toBeUndefined();
  });

  it('Codex’s session headers reach a Responses upstream, for its calls and its compactions', async () => {
    const session = { 'session-id': '01a22600-6736', 'thread-id': '01a22600-6736', session_id: '01a22600-6736' };
    const first = AGENTS.codex.first('gpt-5-codex');
    const res = await post('/v1/responses', { authorization: `Bearer ${f.key}`, ...session, 'x-codex-window-id': 'w:0' }, first);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const sent = responses.requests.at(-1)!.headers;
    expect([sent['session-id'], sent['thread-id'], sent.session_id]).toEqual(Object.values(session));
    // Its own telemetry headers are not the upstream's business.
    expect(sent['x-codex-window-id']).toBeUndefined();
    // Converted to another protocol, the request goes without them.
    const claude = await post(
      '/v1/responses',
      { authorization: `Bearer ${f.key}`, ...session },
      AGENTS.codex.first('claude-sonnet-4-5'),
    );
    expect(claude.status, JSON.stringify(claude.body)).toBe(200);
    expect(f.claude.requests.at(-1)!.headers['session-id']).toBeUndefined();
  });
});
