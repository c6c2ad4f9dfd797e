import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFidelityFixture, type FidelityFixture } from '../helpers/fidelity-fixture.js';
import { AGENTS } from '../helpers/agent-rounds.js';
import { OPENAI_FIXTURES } from '../helpers/upstreams/openai.js';
import { setOptions } from '../helpers/money.js';

type Json = Record<string, any>;

// Codex's remote compaction, POST /v1/responses/compact: relayed to a Responses upstream, emulated
// elsewhere by a summarising call answered as the documented compaction item, billed either way;
// the item read back when a later request carries it.
describe('Codex remote compaction', () => {
  let f: FidelityFixture;
  beforeAll(async () => {
    f = await startFidelityFixture();
    // A custom channel serves chat only: compaction reaches it as a summarising chat call.
    const prices = JSON.parse(f.tg.gateway.ctx.options.raw('ModelRatio'));
    await setOptions(f, { ModelRatio: JSON.stringify({ ...prices, 'qwen3-coder': 0.5, 'qwen3-coder-empty': 0.5 }) });
    await f.addChannel({
      type: 8,
      name: 'custom',
      key: 'sk-custom',
      base_url: f.chat.url,
      models: 'qwen3-coder,qwen3-coder-empty',
    });
  });
  afterAll(async () => {
    await f?.close();
  });

  const quota = async () =>
    (await f.tg.gateway.ctx.db.selectFrom('users').select('quota').where('id', '=', f.userId).executeTakeFirstOrThrow()).quota;

  async function post(path: string, body: Json): Promise<{ status: number; body: Json }> {
    const res = await fetch(`${f.tg.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${f.key}` },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  }

  /** Codex's request; it asks no reasoning of a model it does not know to reason. */
  function codexFirst(model: string): Json {
    const body = AGENTS.codex.first(model);
    if (model === 'qwen3-coder') delete body.reasoning;
    return body;
  }

  /** Codex's conversation after one tool round, as it sends it to be compacted. */
  async function conversation(model: string): Promise<Json> {
    const first = codexFirst(model);
    const one = await AGENTS.codex.send(f.tg.url, f.key, model, first);
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    const next = AGENTS.codex.second(first, one.body)!;
    return { model, instructions: next.instructions, input: next.input };
  }

  /** One served call, billed by the upstream's figures: the log row. */
  async function billed(before: number, usage: [number, number]): Promise<void> {
    const log = await f.lastLog();
    expect([log.prompt_tokens, log.completion_tokens]).toEqual(usage);
    expect(log.quota).toBeGreaterThan(0);
    expect(before - (await quota())).toBe(log.quota);
  }

  it('relays to a Responses upstream at its /responses/compact, billed by its usage', async () => {
    const body = await conversation('claude-sonnet-4-5');
    const before = await quota();
    const res = await post('/v1/responses/compact', { ...body, model: 'gpt-4o-mini', stream: false });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual(OPENAI_FIXTURES.compaction);
    const sent = f.upstream.requests.at(-1)!;
    expect(sent.url).toBe('/v1/responses/compact');
    expect(sent.body.stream).toBeUndefined();
    const { input_tokens, output_tokens } = OPENAI_FIXTURES.compaction.usage;
    await billed(before, [input_tokens, output_tokens]);
  });

  for (const model of ['claude-sonnet-4-5', 'gemini-2.5-flash', 'qwen3-coder']) {
    it(`emulates compaction on ${model}: the summary as a compaction item, billed, read back later`, async () => {
      const body = await conversation(model);
      const before = await quota();
      const res = await post('/v1/responses/compact', body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.object).toBe('response.compaction');
      const standIn = model.startsWith('claude') ? f.claude : model.startsWith('gemini') ? f.gemini : f.chat;
      // The summarising call read the whole conversation: the task, the tool call and its output.
      const summarising = JSON.stringify(standIn.requests.at(-1)!.body);
      for (const seen of ['List the files', 'run_shell', 'package.json']) expect(summarising).toContain(seen);
      const output = res.body.output as Json[];
      expect(output.slice(0, -1)).toEqual(body.input.filter((i: Json) => i.role === 'user'));
      const item = output.at(-1)!;
      expect(item).toEqual({ type: 'compaction', id: expect.stringMatching(/^cmp_/), encrypted_content: expect.any(String) });
      const { usage } = res.body;
      expect(usage.total_tokens).toBe(usage.input_tokens + usage.output_tokens);
      await billed(before, [usage.input_tokens, usage.output_tokens]);

      // Codex goes on with the user's messages and the compaction item in place of the history.
      const later = codexFirst(model);
      later.input = [...output, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Go on.' }] }];
      const again = await AGENTS.codex.send(f.tg.url, f.key, model, later);
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      const sent = JSON.stringify(standIn.requests.at(-1)!.body);
      expect(sent).toContain('Summary of the earlier part of this conversation');
      expect(sent).not.toContain(item.encrypted_content);
    });
  }

  it('refuses a compaction without input in OpenAI’s shape, nothing written', async () => {
    const before = await quota();
    const rows = (await f.lastLog()).id;
    const res = await post('/v1/responses/compact', { model: 'claude-sonnet-4-5', instructions: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('input is required');
    expect([await quota(), (await f.lastLog()).id]).toEqual([before, rows]);
  });

  it('previous_response_id alone: relayed to a Responses upstream, refused clearly elsewhere, unbilled', async () => {
    let before = await quota();
    const relayed = await post('/v1/responses/compact', { model: 'gpt-4o-mini', previous_response_id: 'resp_1' });
    expect(relayed.status, JSON.stringify(relayed.body)).toBe(200);
    expect(f.upstream.requests.at(-1)!.url).toBe('/v1/responses/compact');
    expect(f.upstream.requests.at(-1)!.body).toEqual({ model: 'gpt-4o-mini', previous_response_id: 'resp_1' });
    const { input_tokens, output_tokens } = OPENAI_FIXTURES.compaction.usage;
    await billed(before, [input_tokens, output_tokens]);
    before = await quota();
    const sent = f.claude.requests.length;
    const refused = await post('/v1/responses/compact', { model: 'claude-sonnet-4-5', previous_response_id: 'resp_1' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain(
      'previous_response_id alone can be compacted only on a channel with the Responses API',
    );
    expect([await quota(), f.claude.requests.length]).toEqual([before, sent]);
  });

  it('a compaction item made by the Responses API: carried to a Responses upstream, refused clearly on a converted channel', async () => {
    const foreign = { type: 'compaction', id: 'cmp_1', encrypted_content: 'gAAAAB-opaque-to-everyone-but-openai' };
    const body = (model: string) => ({
      ...codexFirst(model),
      input: [foreign, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Go on.' }] }],
    });
    const carried = await post('/v1/responses', { ...body('gpt-4o-mini'), stream: false });
    expect(carried.status, JSON.stringify(carried.body)).toBe(200);
    expect(f.upstream.requests.at(-1)!.body.input[0]).toEqual(foreign);
    for (const model of ['claude-sonnet-4-5', 'qwen3-coder']) {
      const before = await quota();
      const res = await post('/v1/responses', body(model));
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('a compaction item made by the Responses API can be read only there');
      expect(await quota()).toBe(before);
    }
  });

  it('an empty summary is no compaction: an error in OpenAI’s shape, nothing billed', async () => {
    const body = await conversation('qwen3-coder');
    const before = await quota();
    const res = await post('/v1/responses/compact', { ...body, model: 'qwen3-coder-empty' });
    expect(res.status).toBe(502);
    expect(res.body.error.message).toContain('empty summary');
    expect(await quota()).toBe(before);
    const log = await f.lastLog();
    expect([log.type, log.quota]).toEqual([5, 0]);
  });
});
