import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFidelityFixture, type FidelityFixture } from '../helpers/fidelity-fixture.js';
import { AGENTS, type Agent, type Step } from '../helpers/agent-rounds.js';
import { setOptions } from '../helpers/money.js';

// Coding agents' requests through channels of other protocols, against stand-ins that refuse what
// the real APIs refuse (reasoning models' max_tokens and sampling, Claude's unsigned tool step,
// thinking on models without it): each request is fitted to the upstream model, each step of a
// two-step tool round served and billed by the upstream's own figures.
describe('coding agents on every channel', () => {
  let f: FidelityFixture;
  beforeAll(async () => {
    f = await startFidelityFixture();
    const ratios = JSON.parse(f.tg.gateway.ctx.options.raw('ModelRatio'));
    await setOptions(f, { ModelRatio: JSON.stringify({ ...ratios, 'gemini-2.0-flash': 0.5 }) });
    await f.addChannel({
      type: 24,
      name: 'gemini-2.0',
      key: 'AIza-upstream',
      base_url: f.gemini.url,
      models: 'gemini-2.0-flash',
    });
  });
  afterAll(async () => {
    await f?.close();
  });

  const quota = async () =>
    (await f.tg.gateway.ctx.db.selectFrom('users').select('quota').where('id', '=', f.userId).executeTakeFirstOrThrow()).quota;

  /** The upstream's own figures for its last answer: [prompt, completion]. */
  function upstreamUsage(model: string): [number, number] {
    if (model.startsWith('claude')) return [f.claude.lastUsage!.input_tokens, f.claude.lastUsage!.output_tokens];
    if (model.startsWith('gpt') || model.startsWith('openai/') || model.startsWith('qwen'))
      return [f.chat.lastUsage!.prompt_tokens, f.chat.lastUsage!.completion_tokens];
    const u = f.gemini.lastUsage!;
    return [u.promptTokenCount, u.candidatesTokenCount + (u.thoughtsTokenCount ?? 0)];
  }

  /** One step served, billed by the upstream's figures, its cost taken from the balance. */
  async function billed(step: Step | null, model: string, before: number): Promise<Record<string, unknown>> {
    expect(step?.status, JSON.stringify(step?.body)).toBe(200);
    const log = await f.lastLog();
    expect([log.prompt_tokens, log.completion_tokens]).toEqual(upstreamUsage(model));
    expect(log.quota).toBeGreaterThan(0);
    expect(before - (await quota())).toBe(log.quota);
    return JSON.parse(log.other ?? '{}');
  }

  /** Both steps of an agent's tool round, each billed; the second's log details. */
  async function round(agent: Agent, model: string, edit: (body: Record<string, any>) => void = () => undefined) {
    const shape = AGENTS[agent];
    const first = shape.first(model);
    edit(first);
    let before = await quota();
    const one = await shape.send(f.tg.url, f.key, model, first);
    await billed(one, model, before);
    const next = shape.second(first, one.body);
    expect(next, `${agent} → ${model}: no tool call in ${JSON.stringify(one.body)}`).not.toBeNull();
    before = await quota();
    const two = await shape.send(f.tg.url, f.key, model, next!);
    return { other: await billed(two, model, before) };
  }

  const sent = (model: string) =>
    (model.startsWith('claude') ? f.claude : model.startsWith('gemini') ? f.gemini : f.chat).requests.at(-1)!.body;

  const MATRIX: Array<[Agent, string]> = [
    ['claude-code', 'gpt-5-mini'],
    ['claude-code', 'gpt-4.1'],
    ['claude-code', 'gemini-2.5-flash'],
    ['claude-code', 'claude-sonnet-4-5'],
    ['codex', 'claude-sonnet-4-5'],
    ['codex', 'gemini-2.5-flash'],
    ['gemini-cli', 'claude-sonnet-4-20250514'],
    ['gemini-cli', 'claude-sonnet-4-5'],
    ['gemini-cli', 'gpt-5-mini'],
    ['gemini-cli', 'gpt-4.1'],
    ['claude-code', 'gemini-2.0-flash'],
    ['gemini-cli', 'gemini-2.5-flash'],
    ['qwen-code', 'claude-sonnet-4-5'],
    ['qwen-code', 'gemini-2.5-flash'],
    ['qwen-code', 'gpt-4.1'],
  ];
  for (const [agent, model] of MATRIX) {
    it(`${agent} → ${model}: a tool round served and billed`, async () => {
      await round(agent, model);
    });
  }

  it('Gemini thinking to Claude: the tool step gets its thinking back by the call id', async () => {
    const { other } = await round('gemini-cli', 'claude-sonnet-4-20250514');
    const second = sent('claude-sonnet-4-20250514');
    expect(second.thinking).toEqual({ type: 'enabled', budget_tokens: 8192 });
    expect(second.messages.at(-2).content[0].type).toBe('thinking');
    expect(other.request_fitted).toBeUndefined();
  });

  it('Gemini thinking to an OpenAI model that does not reason: reasoning_effort left out', async () => {
    const { other } = await round('gemini-cli', 'gpt-4.1');
    expect(sent('gpt-4.1').reasoning_effort).toBeUndefined();
    expect(sent('gpt-4.1').temperature).toBe(0);
    expect(other.request_fitted).toEqual(['reasoning_effort dropped: gpt-4.1 does not think']);
  });

  it('Claude Code to an OpenAI reasoning model: max_completion_tokens, sampling left out, effort kept', async () => {
    const { other } = await round('claude-code', 'gpt-5-mini');
    const body = sent('gpt-5-mini');
    expect(body.max_tokens).toBeUndefined();
    expect(body.max_completion_tokens).toBe(32000);
    expect(body.temperature).toBeUndefined();
    expect(body.reasoning_effort).toBe('high');
    expect(other.request_fitted).toEqual([
      'temperature dropped: gpt-5-mini does not take it',
      'max_tokens sent as max_completion_tokens',
    ]);
  });

  it('Gemini CLI sampling to a reasoning model and to Claude 4.5: what each refuses left out', async () => {
    await round('gemini-cli', 'gpt-5-mini');
    expect(Object.keys(sent('gpt-5-mini'))).not.toEqual(expect.arrayContaining(['temperature']));
    expect(sent('gpt-5-mini').top_p).toBeUndefined();
    const { other } = await round('qwen-code', 'claude-sonnet-4-5');
    expect(sent('claude-sonnet-4-5')).toMatchObject({ temperature: 0 });
    expect(sent('claude-sonnet-4-5').top_p).toBeUndefined();
    expect(other.request_fitted).toEqual(['top_p dropped: claude-sonnet-4-5 takes temperature or top_p, not both']);
  });

  it('Codex through a chat-only channel: prompt_cache_key to OpenAI’s models, not to one of no known family', async () => {
    const prices = JSON.parse(f.tg.gateway.ctx.options.raw('ModelRatio'));
    await setOptions(f, { ModelRatio: JSON.stringify({ ...prices, 'openai/gpt-5-mini': 0.5, 'qwen3-coder': 0.5 }) });
    // OpenRouter and a custom channel serve chat only: Codex's Responses requests reach them as chat.
    await f.addChannel({ type: 20, name: 'router', key: 'sk-or', base_url: f.chat.url, models: 'openai/gpt-5-mini' });
    await f.addChannel({ type: 8, name: 'custom', key: 'sk-custom', base_url: f.chat.url, models: 'qwen3-coder' });
    await round('codex', 'openai/gpt-5-mini');
    expect(f.chat.requests.at(-1)!.body.prompt_cache_key).toBe(AGENTS.codex.first('').prompt_cache_key);
    // Codex asks no reasoning of a model it does not know to reason.
    const { other } = await round('codex', 'qwen3-coder', (body) => delete body.reasoning);
    expect(f.chat.requests.at(-1)!.body.prompt_cache_key).toBeUndefined();
    expect(other.request_fitted).toEqual(['prompt_cache_key dropped: qwen3-coder is not known to take it']);
  });

  it('admins extend the table, and a malformed entry is refused', async () => {
    const refused = await f.root.put('/api/option/', {
      key: 'relay.model_capabilities',
      value: JSON.stringify({ 'gpt-4.1': { outputLimt: 100 } }),
    });
    expect(refused.body.success).toBe(false);
    await setOptions(f, { 'relay.model_capabilities': JSON.stringify({ 'gpt-4.1': { outputLimit: 1000 } }) });
    try {
      const { other } = await round('claude-code', 'gpt-4.1');
      expect(sent('gpt-4.1').max_tokens).toBe(1000);
      expect(other.request_fitted).toContain("max_tokens 32000 lowered to the model's 1000");
    } finally {
      await setOptions(f, { 'relay.model_capabilities': '{}' });
    }
  });
});
