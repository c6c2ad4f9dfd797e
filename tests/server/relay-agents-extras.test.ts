import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFidelityFixture, type FidelityFixture } from '../helpers/fidelity-fixture.js';
import { AGENTS } from '../helpers/agent-rounds.js';
import { claudePromptTokens, geminiPromptTokens } from '../../server/relay/wire/prompt-count.js';
import { countTokensNow, loadTokenizer } from '../../server/relay/metering/tokenizer.js';
import { flatToolName } from '../../server/relay/wire/openai/namespace-tools.js';

type Json = Record<string, any>;

const BETA = 'claude-code-20250219,interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14';

// What the coding agents send beyond a chat request: Claude Code's warm-up probe, its beta header
// and query, its token counts; Gemini CLI's countTokens — on channels of every protocol.
describe('coding agents beyond the body', () => {
  let f: FidelityFixture;
  beforeAll(async () => {
    f = await startFidelityFixture();
    await loadTokenizer();
  });
  afterAll(async () => {
    await f?.close();
  });

  const quota = async () =>
    (await f.tg.gateway.ctx.db.selectFrom('users').select('quota').where('id', '=', f.userId).executeTakeFirstOrThrow()).quota;
  const logCount = async () =>
    Number(
      (
        await f.tg.gateway.ctx.db
          .selectFrom('logs')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** An agent's second request, after a served first step. */
  async function secondStep(agent: 'claude-code' | 'gemini-cli', model: string): Promise<Json> {
    const shape = AGENTS[agent];
    const first = shape.first(model);
    const one = await shape.send(f.tg.url, f.key, model, first);
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    return shape.second(first, one.body)!;
  }

  it('answers Claude Code’s HEAD probe on its base URL without a key', async () => {
    const res = await fetch(f.tg.url, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it('Claude Code’s beta header and ?beta=true reach Anthropic, and no other upstream', async () => {
    await secondStep('claude-code', 'claude-sonnet-4-5');
    const sent = f.claude.requests.at(-1)!;
    expect(sent.url).toBe('/v1/messages?beta=true');
    expect(sent.headers['anthropic-beta']).toBe(BETA);
    for (const [model, standIn] of [
      ['gpt-4.1', () => f.chat],
      ['gemini-2.5-flash', () => f.gemini],
    ] as const) {
      await secondStep('claude-code', model);
      const other = standIn().requests.at(-1)!;
      expect(other.headers['anthropic-beta']).toBeUndefined();
      expect(other.url).not.toContain('beta=true');
    }
  });

  /** Claude Code's count of its next request (a whole Messages body here: extra fields are left out upstream). */
  async function countClaude(body: Json): Promise<{ status: number; body: Json }> {
    const res = await fetch(`${f.tg.url}/v1/messages/count_tokens?beta=true`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': f.key,
        'anthropic-version': '2023-06-01',
        'anthropic-beta': BETA,
      },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  }

  it('counts a Claude Code tool step: Anthropic’s count on a Claude channel, a local one elsewhere, nothing billed', async () => {
    const next = await secondStep('claude-code', 'claude-sonnet-4-5');
    const [before, rows] = [await quota(), await logCount()];
    const upstream = await countClaude(next);
    expect(upstream.status, JSON.stringify(upstream.body)).toBe(200);
    const sent = f.claude.requests.at(-1)!;
    expect(sent.url).toBe('/v1/messages/count_tokens?beta=true');
    expect(sent.headers['anthropic-beta']).toBe(BETA);
    expect(Object.keys(sent.body)).not.toContain('max_tokens');
    expect(sent.body.messages).toEqual(next.messages);
    expect(upstream.body.input_tokens).toBeGreaterThan(0);
    const countsBefore = f.claude.requests.length;
    for (const model of ['gpt-4.1', 'gemini-2.5-flash']) {
      const local = await countClaude({ ...next, model });
      expect(local.status).toBe(200);
      const { max_tokens: _m, metadata: _d, temperature: _t, ...counted } = next;
      expect(local.body.input_tokens).toBe(claudePromptTokens(counted, countTokensNow));
    }
    expect(f.claude.requests.length).toBe(countsBefore);
    expect([await quota(), await logCount()]).toEqual([before, rows]);
  });

  it('refuses a count_tokens body without a model in Claude’s shape', async () => {
    const res = await countClaude({ messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(400);
    expect(res.body.type).toBe('error');
  });

  async function countGemini(model: string, body: Json): Promise<{ status: number; body: Json }> {
    const res = await fetch(`${f.tg.url}/v1beta/models/${model}:countTokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': f.key },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  }

  it('counts a Gemini CLI tool step on every channel protocol, nothing billed', async () => {
    for (const model of ['gemini-2.5-flash', 'claude-sonnet-4-5', 'gpt-4.1']) {
      const next = await secondStep('gemini-cli', model);
      const [before, rows, geminiCalls] = [await quota(), await logCount(), f.gemini.requests.length];
      const counted = await countGemini(model, { contents: next.contents });
      expect(counted.status, JSON.stringify(counted.body)).toBe(200);
      if (model.startsWith('gemini')) {
        expect(f.gemini.requests.at(-1)!.url).toBe(`/v1beta/models/${model}:countTokens`);
        expect(f.gemini.requests.at(-1)!.body).toEqual({ contents: next.contents });
        expect(counted.body.totalTokens).toBeGreaterThan(0);
      } else {
        expect(f.gemini.requests.length).toBe(geminiCalls);
        expect(counted.body.totalTokens).toBe(geminiPromptTokens({ contents: next.contents }, countTokensNow));
      }
      expect([await quota(), await logCount()]).toEqual([before, rows]);
    }
  });
  /** Codex's sub-agent tools, as it sends them (openai/codex's ResponsesApiNamespace). */
  const COLLABORATION = {
    type: 'namespace',
    name: 'collaboration',
    description: 'Tools to work with sub-agents.',
    tools: [
      {
        type: 'function',
        name: 'spawn_agent',
        description: 'Spawns an agent.',
        strict: false,
        parameters: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
      },
    ],
  };

  for (const model of ['claude-sonnet-4-5', 'gemini-2.5-flash']) {
    it(`Codex namespace tools to ${model}: flattened for the upstream, called back by namespace and name`, async () => {
      const first = AGENTS.codex.first(model);
      first.tools = [COLLABORATION, ...first.tools];
      const one = await AGENTS.codex.send(f.tg.url, f.key, model, first);
      expect(one.status, JSON.stringify(one.body)).toBe(200);
      const standIn = model.startsWith('claude') ? f.claude : f.gemini;
      const offered = JSON.stringify(standIn.requests.at(-1)!.body);
      expect(offered).toContain('"collaboration__spawn_agent"');
      expect(offered).toContain('Tools to work with sub-agents.');
      const call = (one.body.output as Json[]).find((i) => i.type === 'function_call')!;
      expect(call).toMatchObject({ namespace: 'collaboration', name: 'spawn_agent' });
      // Codex echoes the call with its namespace: the upstream sees the flat name in the history.
      const two = await AGENTS.codex.send(f.tg.url, f.key, model, AGENTS.codex.second(first, one.body)!);
      expect(two.status, JSON.stringify(two.body)).toBe(200);
      const history = JSON.stringify(standIn.requests.at(-1)!.body);
      expect(history.match(/collaboration__spawn_agent/g)?.length).toBeGreaterThanOrEqual(2);
    });
  }

  it('Codex namespace tools in a converted stream: the call item carries its namespace', async () => {
    const body: Json = { ...AGENTS.codex.first('claude-sonnet-4-5'), stream: true };
    body.tools = [COLLABORATION, ...body.tools];
    const res = await fetch(`${f.tg.url}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${f.key}` },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('"namespace":"collaboration","name":"spawn_agent"');
    expect(text).not.toContain('collaboration__spawn_agent');
  });
  it('keeps flattened names within chat’s 64 characters, distinct', () => {
    const long = 'mcp__codex_apps__a_connector_with_a_very_long_name';
    const [a, b] = [flatToolName(long, 'search_messages_in_inbox'), flatToolName(long, 'search_messages_in_outbox')];
    expect([a.length <= 64, b.length <= 64, a !== b]).toEqual([true, true, true]);
    expect(flatToolName('mcp__srv', 'read.file')).toBe('mcp__srv__read_file');
  });
});
