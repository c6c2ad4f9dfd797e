import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFidelityFixture, type FidelityFixture } from '../helpers/fidelity-fixture.js';
import { FOLLOW_UP, replay, type Capture } from '../helpers/agent-replay.js';

type Json = Record<string, any>;

const MODEL = 'claude-sonnet-4-20250514';
const SHELL = {
  name: 'run_shell',
  description: 'Runs a shell command.',
  parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
};

/** A Gemini CLI request (it keeps no thoughts in the history it sends back), streamed or not. */
const gemini = (stream: boolean): Capture => ({
  cli: 'gemini',
  file: 'made',
  path: `/v1beta/models/${MODEL}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
  headers: { 'x-goog-api-key': '', 'content-type': 'application/json' },
  body: {
    contents: [{ role: 'user', parts: [{ text: 'List the files.' }] }],
    tools: [
      { functionDeclarations: [{ name: SHELL.name, description: SHELL.description, parametersJsonSchema: SHELL.parameters }] },
    ],
    generationConfig: { thinkingConfig: { includeThoughts: true, thinkingBudget: 4096 } },
  },
});

/** An OpenAI chat agent asking for reasoning: it sends back the assistant message without thinking_blocks. */
const chat = (stream: boolean): Capture => ({
  cli: 'qwen',
  file: 'made',
  path: '/v1/chat/completions',
  headers: { authorization: '', 'content-type': 'application/json' },
  body: {
    model: MODEL,
    messages: [{ role: 'user', content: 'List the files.' }],
    tools: [{ type: 'function', function: SHELL }],
    reasoning_effort: 'medium',
    max_tokens: 16000,
    stream,
    ...(stream ? { stream_options: { include_usage: true } } : {}),
  },
});

/** The thinking blocks of each assistant turn that calls a tool. */
const thinkingOfToolTurns = (body: Json) =>
  (body.messages as Json[])
    .filter((m) => m.role === 'assistant' && (m.content as Json[]).some((b) => b.type === 'tool_use'))
    .map((m) => (m.content as Json[]).filter((b) => b.type === 'thinking').length);

// Clients that do not send thoughts back (Gemini CLI, OpenAI chat agents) reaching a Claude channel
// with thinking on: Claude's signed thinking is kept under the tool call's id and put back when the
// id returns, so a strict stand-in (it checks each block's signature) takes every tool step with
// thinking on; where nothing can be restored, thinking is off for that step, as the log says.
describe('Claude thinking kept by tool-call id for clients that drop it', () => {
  let f: FidelityFixture;
  beforeAll(async () => {
    f = await startFidelityFixture();
  });
  afterAll(async () => {
    await f?.close();
  });

  const quota = async () =>
    (await f.tg.gateway.ctx.db.selectFrom('users').select('quota').where('id', '=', f.userId).executeTakeFirstOrThrow()).quota;

  /** One step served and billed by the stand-in's figures; what reached Claude and the log's details. */
  async function step(capture: Capture, body: Json) {
    const before = await quota();
    const answer = await replay(f.tg.url, f.key, capture, MODEL, body);
    expect(answer.status, JSON.stringify(answer.body).slice(0, 600)).toBe(200);
    const log = await f.lastLog();
    expect([log.prompt_tokens, log.completion_tokens]).toEqual([
      f.claude.lastUsage!.input_tokens,
      f.claude.lastUsage!.output_tokens,
    ]);
    expect(before - (await quota())).toBe(log.quota);
    return { answer: answer.body, sent: f.claude.requests.at(-1)!.body as Json, other: JSON.parse(log.other ?? '{}') as Json };
  }

  /** A user's next message after the answer (text only). */
  function nextTask(capture: Capture, body: Json, answer: Json): Json {
    if (capture.cli === 'gemini') {
      const parts = (answer.candidates[0].content.parts as Json[]).filter((p) => !p.thought);
      return {
        ...body,
        contents: [...body.contents, { role: 'model', parts }, { role: 'user', parts: [{ text: 'Now count them.' }] }],
      };
    }
    const { content } = answer.choices[0].message;
    return {
      ...body,
      messages: [...body.messages, { role: 'assistant', content }, { role: 'user', content: 'Now count them.' }],
    };
  }

  /** Two tool rounds: each tool step's second request goes with thinking on and the thinking restored. */
  async function twoRounds(capture: Capture) {
    let body = capture.body;
    for (const round of [1, 2]) {
      const call = await step(capture, body);
      expect(call.sent.thinking?.type).toBe('enabled');
      const next = FOLLOW_UP[capture.cli](body, call.answer);
      expect(next, JSON.stringify(call.answer).slice(0, 400)).not.toBeNull();
      const result = await step(capture, next!);
      expect(result.sent.thinking?.type).toBe('enabled');
      expect(thinkingOfToolTurns(result.sent)).toEqual(round === 1 ? [1] : [1, 1]);
      expect(result.sent.messages.at(-2).content[0].type).toBe('thinking');
      expect(result.other.request_fitted).toBeUndefined();
      body = nextTask(capture, next!, result.answer);
    }
  }

  for (const stream of [false, true]) {
    it(`Gemini CLI with thinking, ${stream ? 'streamed' : 'whole'}: two tool rounds with thinking on`, async () => {
      await twoRounds(gemini(stream));
    });
    it(`an OpenAI chat agent asking for reasoning, ${stream ? 'streamed' : 'whole'}: two tool rounds with thinking on`, async () => {
      await twoRounds(chat(stream));
    });
  }

  it('nothing to restore (a client that makes its own ids): thinking off for that step, said in the log', async () => {
    const capture = gemini(false);
    const call = await step(capture, capture.body);
    const next = FOLLOW_UP.gemini(capture.body, call.answer)!;
    for (const content of next.contents as Json[])
      for (const part of content.parts as Json[]) {
        if (part.functionCall) part.functionCall.id = 'run_shell-1';
        if (part.functionResponse) part.functionResponse.id = 'run_shell-1';
      }
    const result = await step(capture, next);
    expect(result.sent.thinking).toBeUndefined();
    expect(result.other.request_fitted).toEqual(['thinking off: the tool step carries no thinking to send back']);
  });

  it('a sealed id whose thinking is gone (expired, another gateway): thinking off, served', async () => {
    const capture = chat(false);
    const call = await step(capture, capture.body);
    const next = FOLLOW_UP.qwen(capture.body, call.answer)!;
    const id: string = call.answer.choices[0].message.tool_calls[0].id;
    expect(id).toMatch(/^call_th1_[A-Za-z0-9_-]{22}$/);
    const gone = id.replace(/.{4}$/, 'AAAA');
    for (const m of next.messages as Json[]) {
      if (m.tool_calls) m.tool_calls[0].id = gone;
      if (m.role === 'tool') m.tool_call_id = gone;
    }
    const result = await step(capture, next);
    expect(result.sent.thinking).toBeUndefined();
    expect(result.other.request_fitted).toEqual(['thinking off: the tool step carries no thinking to send back']);
  });
});
