import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFidelityFixture, type FidelityFixture } from '../helpers/fidelity-fixture.js';
import { startResponsesStandIn, type ResponsesStandIn } from '../helpers/upstreams/openai-responses.js';
import { FOLLOW_UP, loadCaptures, replay, type Answer, type Capture } from '../helpers/agent-replay.js';
import { setOptions } from '../helpers/money.js';

type Json = Record<string, any>;

/** Every channel protocol: OpenAI chat (a reasoning model and one without), Responses, Claude, Gemini. */
const TARGETS = ['gpt-5-mini', 'gpt-4.1', 'gpt-5-codex', 'claude-sonnet-4-5', 'gemini-2.5-flash'];

// The agents' own captured requests (scripts/agents/run.mjs), replayed as they were sent — streamed,
// with their headers — to channels of every protocol, against stand-ins that refuse what the real
// APIs refuse, each through a tool round: both steps served and billed by the upstream's figures.
describe('captured agent traffic replayed on every channel protocol', () => {
  let f: FidelityFixture;
  let responses: ResponsesStandIn;
  const captures = loadCaptures();

  beforeAll(async () => {
    f = await startFidelityFixture();
    responses = await startResponsesStandIn(f.chat.url);
    const ratios = JSON.parse(f.tg.gateway.ctx.options.raw('ModelRatio'));
    // Qwen Code calls in chat's own format: its max_tokens reaches gpt-5 only fitted by the admin's choice.
    await setOptions(f, { ModelRatio: JSON.stringify({ ...ratios, 'gpt-5-codex': 0.5 }), 'relay.fit_native_requests': 'true' });
    await f.addChannel({ type: 1, name: 'responses', key: 'sk-openai-2', base_url: responses.url, models: 'gpt-5-codex' });
  });
  afterAll(async () => {
    await f?.close();
    await responses?.close();
  });

  const quota = async () =>
    (await f.tg.gateway.ctx.db.selectFrom('users').select('quota').where('id', '=', f.userId).executeTakeFirstOrThrow()).quota;

  /** The stand-in that served `model` for this client, and its figures for its last answer: [prompt, completion]. */
  function upstream(capture: Capture, model: string): { body: Json; usage: [number, number] } {
    if (model.startsWith('claude'))
      return {
        body: f.claude.requests.at(-1)!.body,
        usage: [f.claude.lastUsage!.input_tokens, f.claude.lastUsage!.output_tokens],
      };
    if (model.startsWith('gemini')) {
      const u = f.gemini.lastUsage!;
      return {
        body: f.gemini.requests.at(-1)!.body,
        usage: [u.promptTokenCount, u.candidatesTokenCount + (u.thoughtsTokenCount ?? 0)],
      };
    }
    if (capture.cli === 'codex' && model === 'gpt-5-codex')
      return {
        body: responses.requests.at(-1)!.body,
        usage: [responses.lastUsage!.input_tokens, responses.lastUsage!.output_tokens],
      };
    return { body: f.chat.requests.at(-1)!.body, usage: [f.chat.lastUsage!.prompt_tokens, f.chat.lastUsage!.completion_tokens] };
  }

  /** One step: served (as a stream when captured so), billed by the upstream's figures; what went upstream and the log's details. */
  async function step(capture: Capture, model: string, body: Json): Promise<{ answer: Answer; sent: Json; other: Json }> {
    const before = await quota();
    const answer = await replay(f.tg.url, f.key, capture, model, body);
    expect(answer.status, JSON.stringify(answer.body).slice(0, 600)).toBe(200);
    expect(answer.streamed).toBe(body.stream === true || capture.path.includes('streamGenerateContent'));
    const { body: sent, usage } = upstream(capture, model);
    const log = await f.lastLog();
    expect(log.model_name).toBe(model);
    expect([log.prompt_tokens, log.completion_tokens]).toEqual(usage);
    expect(log.quota).toBeGreaterThan(0);
    expect(before - (await quota())).toBe(log.quota);
    return { answer, sent, other: JSON.parse(log.other ?? '{}') };
  }

  /** Both steps of the tool round; the second step's upstream body and log details. */
  async function round(capture: Capture, model: string) {
    const first = await step(capture, model, capture.body);
    const next = FOLLOW_UP[capture.cli](capture.body, first.answer.body);
    expect(next, `no tool call in ${JSON.stringify(first.answer.body).slice(0, 600)}`).not.toBeNull();
    const second = await step(capture, model, next!);
    return { first, second };
  }

  it('has each agent’s capture', () => {
    expect(new Set(captures.map((c) => c.cli))).toEqual(new Set(['claude', 'codex', 'gemini', 'qwen']));
  });

  /** The same request asked whole: stream off (Gemini: generateContent). */
  function whole(capture: Capture): Capture {
    if (capture.cli === 'gemini')
      return { ...capture, path: capture.path.replace(':streamGenerateContent?alt=sse', ':generateContent') };
    const { stream_options: _options, ...body } = capture.body;
    return { ...capture, body: { ...body, stream: false } };
  }

  for (const capture of captures) {
    for (const model of TARGETS) {
      // Codex on an OpenAI channel speaks Responses: the chat-only stand-ins behind gpt-5-mini and gpt-4.1 would not.
      if (capture.cli === 'codex' && (model === 'gpt-5-mini' || model === 'gpt-4.1')) continue;
      it(`${capture.cli}/${capture.file} → ${model}: a streamed tool round served and billed`, async () => {
        await round(capture, model);
      });
      it(`${capture.cli}/${capture.file} → ${model}: the same round asked whole`, async () => {
        await round(whole(capture), model);
      });
    }
  }

  const capture = (cli: string) => captures.find((c) => c.cli === cli)!;

  it('Claude Code to a reasoning model: max_completion_tokens, thinking as effort, said in the log', async () => {
    const { second } = await round(capture('claude'), 'gpt-5-mini');
    expect(second.sent.max_tokens).toBeUndefined();
    expect(second.sent.max_completion_tokens).toBe(32000);
    expect(second.sent.reasoning_effort).toBeDefined();
    expect(second.other.request_fitted).toContain('max_tokens sent as max_completion_tokens');
  });

  it('Gemini CLI’s sampling and thinking fitted to each OpenAI model', async () => {
    const reasoning = await round(capture('gemini'), 'gpt-5-mini');
    expect(reasoning.second.sent.top_p).toBeUndefined();
    expect(reasoning.second.other.request_fitted).toContain('top_p dropped: gpt-5-mini does not take it');
    const plain = await round(capture('gemini'), 'gpt-4.1');
    expect(plain.second.sent.reasoning_effort).toBeUndefined();
    expect(plain.second.sent.top_p).toBe(0.95);
    expect(plain.second.other.request_fitted).toContain('reasoning_effort dropped: gpt-4.1 does not think');
  });

  it('Qwen Code’s max_tokens reaches a reasoning model as max_completion_tokens, when the admin fits same-format calls', async () => {
    const { first } = await round(capture('qwen'), 'gpt-5-mini');
    expect(first.sent.max_completion_tokens).toBe(8000);
    expect(first.sent.max_tokens).toBeUndefined();
    expect(first.other.request_fitted).toEqual(['max_tokens sent as max_completion_tokens']);
    await setOptions(f, { 'relay.fit_native_requests': 'false' });
    try {
      const before = await quota();
      const refused = await replay(f.tg.url, f.key, capture('qwen'), 'gpt-5-mini', capture('qwen').body);
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body)).toContain("Use 'max_completion_tokens' instead");
      expect(await quota()).toBe(before);
      // Off, a same-format request keeps the client's fields.
      const raw = f.chat.requests.at(-1)!.body;
      expect(raw.max_tokens).toBe(8000);
    } finally {
      await setOptions(f, { 'relay.fit_native_requests': 'true' });
    }
  });

  it('Codex on a Responses channel: its request passed through, reasoning echoed and accepted', async () => {
    const { first, second } = await round(capture('codex'), 'gpt-5-codex');
    expect(first.sent.prompt_cache_key).toBe(capture('codex').body.prompt_cache_key);
    const echoed = (second.sent.input as Json[]).filter((i) => i.type === 'reasoning');
    expect(echoed.length).toBe(1);
    expect(echoed[0]!.encrypted_content).toMatch(/^gAAAA/);
  });
});
