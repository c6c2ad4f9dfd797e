import { generateText, stepCountIs, streamText, tool, type LanguageModel, type ToolSet } from 'ai';
import { ChatOpenAI } from '@langchain/openai';
import { ChatAnthropic } from '@langchain/anthropic';
import { HumanMessage, ToolMessage, type AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import { z } from 'zod';
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

// Gemini 3 tool runs driven by the Vercel AI SDK's agent loop and by LangChain chat models, in
// each client format (OpenAI chat, OpenAI Responses, Claude messages), streaming and not. Neither
// keeps Google's extra_content: the thought signatures come back only through the tool-call ids
// the gateway handed out, and the stand-in refuses a step without its own, as Google does.
describe('Gemini 3 tool runs from the AI SDK and LangChain', () => {
  let f: FidelityFixture;
  beforeAll(async () => {
    f = await startFidelityFixture();
  });
  afterAll(async () => {
    await f?.close();
  });

  const ids: string[] = [];
  const tools: ToolSet = Object.fromEntries(
    TOOL_NAMES.map((name) => [
      name,
      tool({
        description: `The ${name.slice(4)} in a city`,
        inputSchema: z.object({ city: z.string() }),
        execute: async (_input, { toolCallId }) => {
          ids.push(toolCallId);
          return JSON.parse(toolResult(name));
        },
      }),
    ]),
  );

  async function sdkRun(model: () => LanguageModel, stream: boolean) {
    const before = await mark(f);
    ids.length = 0;
    const options = { model: model(), tools, prompt: PROMPT, stopWhen: stepCountIs(5) };
    const text = stream ? await streamText(options).text : (await generateText(options)).text;
    expect(text).toBe(FINAL);
    expect(ids).toHaveLength(2);
    ids.forEach(expectSealedId);
    await expectSignedRun(f, before);
  }

  it('AI SDK, OpenAI chat, non-streaming', () => sdkRun(() => f.sdk.openai.chat(GEMINI_3), false));
  it('AI SDK, OpenAI chat, streaming', () => sdkRun(() => f.sdk.openai.chat(GEMINI_3), true));
  it('AI SDK, OpenAI Responses, non-streaming', () => sdkRun(() => f.sdk.openai.responses(GEMINI_3), false));
  it('AI SDK, OpenAI Responses, streaming', () => sdkRun(() => f.sdk.openai.responses(GEMINI_3), true));
  it('AI SDK, Claude messages, non-streaming', () => sdkRun(() => f.sdk.anthropic(GEMINI_3), false));
  it('AI SDK, Claude messages, streaming', () => sdkRun(() => f.sdk.anthropic(GEMINI_3), true));

  type Answer = BaseMessage & { tool_calls?: Array<{ id?: string; name: string }> };
  type Chat = {
    invoke(messages: BaseMessage[]): Promise<Answer>;
    stream(messages: BaseMessage[]): Promise<AsyncIterable<AIMessageChunk>>;
  };

  /** Streams through `.stream()`, its chunks joined: this LangChain's `invoke` with `streaming: true` never settles here. */
  async function streamed(chat: Chat, messages: BaseMessage[]): Promise<Answer> {
    let whole: AIMessageChunk | undefined;
    for await (const chunk of await chat.stream(messages)) whole = whole ? whole.concat(chunk) : chunk;
    return whole!;
  }

  const langchainTools = TOOL_NAMES.map((name) => ({
    type: 'function' as const,
    function: { name, description: `The ${name.slice(4)} in a city`, parameters: PARAMETERS },
  }));

  async function langchainRun(chat: Chat, stream: boolean) {
    const before = await mark(f);
    const messages: BaseMessage[] = [new HumanMessage(PROMPT)];
    for (let step = 0; step < 4; step++) {
      const answer = stream ? await streamed(chat, messages) : await chat.invoke(messages);
      messages.push(answer);
      const calls = answer.tool_calls ?? [];
      if (calls.length === 0) {
        const content = answer.content;
        const text = typeof content === 'string' ? content : content.map((c) => ('text' in c ? c.text : '')).join('');
        expect(text).toBe(FINAL);
        break;
      }
      for (const call of calls) {
        expectSealedId(call.id!);
        messages.push(new ToolMessage({ tool_call_id: call.id!, content: toolResult(call.name) }));
      }
    }
    await expectSignedRun(f, before);
  }

  const openaiOptions = () => ({ model: GEMINI_3, apiKey: f.key, configuration: { baseURL: `${f.tg.url}/v1` }, maxRetries: 0 });

  it('LangChain ChatOpenAI, OpenAI chat, streaming and not', async () => {
    const chat = new ChatOpenAI(openaiOptions()).bindTools(langchainTools);
    await langchainRun(chat, false);
    await langchainRun(chat, true);
  });

  it('LangChain ChatOpenAI, OpenAI Responses, streaming and not', async () => {
    const chat = new ChatOpenAI({ ...openaiOptions(), useResponsesApi: true }).bindTools(langchainTools);
    await langchainRun(chat, false);
    await langchainRun(chat, true);
  });

  it('LangChain ChatAnthropic, Claude messages, streaming and not', async () => {
    const options = { model: GEMINI_3, apiKey: f.key, anthropicApiUrl: f.tg.url, maxRetries: 0 };
    const chat = new ChatAnthropic(options).bindTools(langchainTools);
    await langchainRun(chat, false);
    await langchainRun(chat, true);
  });
});
