import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFidelityFixture, type FidelityFixture } from '../helpers/fidelity-fixture.js';
import {
  expectSealedId,
  expectSignedRun,
  FINAL,
  GEMINI_3,
  mark,
  PARAMETERS,
  PROMPT,
  TOOL_NAMES,
  toolResult,
} from '../helpers/gemini-tool-run.js';

// Gemini 3 tool runs from the official OpenAI and Anthropic clients, each step sent back with only
// the fields of the client's own API: Gemini's thought signatures come back through the tool-call
// ids the gateway handed out (the stand-in refuses a step without its own signature, as Google
// does), streaming and not. A call the gateway never signed gets Google's skip value.
describe('Gemini 3 tool runs from official clients', () => {
  let f: FidelityFixture;
  let openai: OpenAI;
  beforeAll(async () => {
    f = await startFidelityFixture();
    openai = f.openai();
  });
  afterAll(async () => {
    await f?.close();
  });

  const chatTools: OpenAI.ChatCompletionTool[] = TOOL_NAMES.map((name) => ({
    type: 'function',
    function: { name, description: `The ${name.slice(4)} in a city`, parameters: PARAMETERS },
  }));

  async function chatRun(stream: boolean) {
    const before = await mark(f);
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: PROMPT }];
    for (let step = 0; step < 4; step++) {
      const message = stream
        ? (await openai.chat.completions.stream({ model: GEMINI_3, messages, tools: chatTools }).finalChatCompletion())
            .choices[0]!.message
        : (await openai.chat.completions.create({ model: GEMINI_3, messages, tools: chatTools })).choices[0]!.message;
      const calls = (message.tool_calls ?? []).filter((c) => c.type === 'function');
      if (calls.length === 0) {
        expect(message.content).toBe(FINAL);
        break;
      }
      for (const call of calls) expectSealedId(call.id);
      // OpenAI's own fields only, as clients that drop Google's extra_content send them.
      messages.push({
        role: 'assistant',
        content: message.content,
        tool_calls: calls.map(({ id, type, function: fn }) => ({ id, type, function: fn })),
      });
      for (const call of calls) messages.push({ role: 'tool', tool_call_id: call.id, content: toolResult(call.function.name) });
    }
    await expectSignedRun(f, before);
  }

  it('OpenAI chat, non-streaming', () => chatRun(false));
  it('OpenAI chat, streaming', () => chatRun(true));

  async function responsesRun(stream: boolean) {
    const before = await mark(f);
    const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: PROMPT }];
    const tools: OpenAI.Responses.FunctionTool[] = TOOL_NAMES.map((name) => ({
      type: 'function',
      name,
      parameters: { ...PARAMETERS },
      strict: false,
    }));
    for (let step = 0; step < 4; step++) {
      const response = stream
        ? await openai.responses.stream({ model: GEMINI_3, input, tools }).finalResponse()
        : await openai.responses.create({ model: GEMINI_3, input, tools });
      const output: OpenAI.Responses.ResponseOutputItem[] = response.output;
      const calls = output.filter((o) => o.type === 'function_call');
      if (calls.length === 0) {
        // The stream helper's final response has no output_text of its own: read the message.
        const text = output.flatMap((o) => (o.type === 'message' ? o.content : []));
        expect(text).toEqual([expect.objectContaining({ type: 'output_text', text: FINAL })]);
        break;
      }
      for (const call of calls) {
        expectSealedId(call.call_id);
        input.push({ type: 'function_call', call_id: call.call_id, name: call.name, arguments: call.arguments });
        input.push({ type: 'function_call_output', call_id: call.call_id, output: toolResult(call.name) });
      }
    }
    await expectSignedRun(f, before);
  }

  it('OpenAI Responses, non-streaming', () => responsesRun(false));
  it('OpenAI Responses, streaming', () => responsesRun(true));

  async function claudeRun(stream: boolean) {
    const before = await mark(f);
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: PROMPT }];
    const tools: Anthropic.Tool[] = TOOL_NAMES.map((name) => ({ name, input_schema: { ...PARAMETERS } }));
    for (let step = 0; step < 4; step++) {
      const request = { model: GEMINI_3, max_tokens: 1024, messages, tools };
      const message = stream
        ? await f.anthropic.messages.stream(request).finalMessage()
        : await f.anthropic.messages.create(request);
      const uses = message.content.filter((b) => b.type === 'tool_use');
      if (uses.length === 0) {
        expect(message.content.find((b) => b.type === 'text')?.text).toBe(FINAL);
        break;
      }
      expect(message.stop_reason).toBe('tool_use');
      for (const use of uses) expectSealedId(use.id);
      messages.push({ role: 'assistant', content: message.content });
      messages.push({
        role: 'user',
        content: uses.map((use) => ({ type: 'tool_result' as const, tool_use_id: use.id, content: toolResult(use.name) })),
      });
    }
    await expectSignedRun(f, before);
  }

  it('Claude messages, non-streaming', () => claudeRun(false));
  it('Claude messages, streaming', () => claudeRun(true));

  it('keeps Google’s own extra_content working, and sends the skip value for calls it cannot restore', async () => {
    const first = await openai.chat.completions.create({
      model: GEMINI_3,
      messages: [{ role: 'user', content: PROMPT }],
      tools: chatTools,
    });
    const call = first.choices[0]!.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall & {
      extra_content?: { google?: { thought_signature?: string } };
    };
    const signature = call.extra_content?.google?.thought_signature;
    expect(signature).toMatch(/^[A-Za-z0-9+/=]{32}$/);
    const after = (id: string, extra?: object): OpenAI.ChatCompletionMessageParam[] => [
      { role: 'user', content: PROMPT },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id, type: 'function', function: call.function, ...extra }],
      },
      { role: 'tool', tool_call_id: id, content: toolResult('get_weather') },
    ];
    const sentSignature = () =>
      f.gemini.requests.at(-1)!.body.contents[1].parts.find((p: Record<string, unknown>) => p.functionCall).thoughtSignature;

    // The client's own echo of Google's extension, under an id of its own.
    const skipped = f.gemini.skippedSignatures;
    await openai.chat.completions.create({
      model: GEMINI_3,
      messages: after('call_mine', { extra_content: call.extra_content }),
      tools: chatTools,
    });
    expect(sentSignature()).toBe(signature);
    expect(f.gemini.skippedSignatures).toBe(skipped);

    // A conversation from elsewhere, and a sealed id whose signature the gateway does not hold.
    for (const id of ['call_from_elsewhere', `call_gs1_${'A'.repeat(22)}`]) {
      const answer = await openai.chat.completions.create({ model: GEMINI_3, messages: after(id), tools: chatTools });
      expect(answer.choices[0]!.message.tool_calls![0]!).toMatchObject({ function: { name: 'get_time' } });
      expect(sentSignature()).toBe('skip_thought_signature_validator');
    }
    expect(f.gemini.skippedSignatures).toBe(skipped + 2);
  });

  it('sends no skip value to Gemini 2.5, which does not validate signatures', async () => {
    await openai.chat.completions.create({
      model: 'gemini-2.5-flash',
      messages: [
        { role: 'user', content: PROMPT },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: toolResult('get_weather') },
      ],
      tools: chatTools,
    });
    const step = f.gemini.requests.at(-1)!.body.contents[1];
    expect(step.parts[0]).toEqual({ functionCall: { name: 'get_weather', args: { city: 'Paris' } } });
  });
});
