import { generateText, streamText } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFidelityFixture, type FidelityFixture } from '../helpers/fidelity-fixture.js';

// Thinking toward Gemini and across formats: OpenAI's reasoning_effort and Claude's thinking reach
// Gemini as thinkingConfig (a budget on 2.5 by the documented levels — low 1,024, medium 8,192, high
// 24,576 — a level on Gemini 3), thought summaries come back as the client's reasoning, and thoughts
// are billed; Claude's thinking does not reach an OpenAI model that does not reason (it would refuse).
describe('thinking across formats', () => {
  let f: FidelityFixture;
  beforeAll(async () => {
    f = await startFidelityFixture();
  });
  afterAll(async () => {
    await f?.close();
  });

  const thinkingSent = () => f.gemini.requests.at(-1)!.body.generationConfig?.thinkingConfig;
  const billedGemini = async () => {
    const u = f.gemini.lastUsage!;
    expect(u.thoughtsTokenCount).toBe(20);
    const log = await f.lastLog();
    expect([log.prompt_tokens, log.completion_tokens]).toEqual([u.promptTokenCount, u.candidatesTokenCount + 20]);
  };

  it('OpenAI reasoning_effort to Gemini 2.5 as its level’s budget, thoughts as reasoning_content', async () => {
    const answer = await f.openai().chat.completions.create({
      model: 'gemini-2.5-flash',
      messages: [{ role: 'user', content: 'Think, then answer.' }],
      reasoning_effort: 'low',
    });
    expect(thinkingSent()).toEqual({ includeThoughts: true, thinkingBudget: 1024 });
    expect((answer.choices[0]!.message as { reasoning_content?: string }).reasoning_content).toBe('Thinking it over.');
    await billedGemini();
  });

  it('the AI SDK’s reasoningEffort to Gemini 3 as a thinking level, streaming', async () => {
    const result = streamText({
      model: f.sdk.openai.chat('gemini-3-pro-preview'),
      prompt: 'Think, then answer.',
      providerOptions: { openai: { reasoningEffort: 'medium' } },
    });
    expect(await result.text).toBe('Hello from the Gemini stand-in.');
    // Gemini 3 Pro takes low and high only: medium rounds up.
    expect(thinkingSent()).toEqual({ includeThoughts: true, thinkingLevel: 'high' });
    await billedGemini();
  });

  it('Claude thinking to Gemini as a budget, thoughts back as a thinking block, streaming and not', async () => {
    const message = await f.anthropic.messages.create({
      model: 'gemini-2.5-flash',
      max_tokens: 16000,
      thinking: { type: 'enabled', budget_tokens: 10000 },
      messages: [{ role: 'user', content: 'Think, then answer.' }],
    });
    expect(thinkingSent()).toEqual({ includeThoughts: true, thinkingBudget: 24576 });
    expect(message.content.map((b) => b.type)).toEqual(['thinking', 'text']);
    await billedGemini();

    const result = await generateText({
      model: f.sdk.anthropic('gemini-2.5-flash'),
      prompt: 'Think, then answer.',
      providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 2000 } } },
    });
    expect(result.reasoningText).toBe('Thinking it over.');
    expect(thinkingSent()).toEqual({ includeThoughts: true, thinkingBudget: 8192 });

    const stream = f.anthropic.messages.stream({
      model: 'gemini-2.5-flash',
      max_tokens: 4000,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [{ role: 'user', content: 'Think, then answer.' }],
    });
    const final = await stream.finalMessage();
    expect(final.content[0]).toMatchObject({ type: 'thinking', thinking: 'Thinking it over.' });
    expect(thinkingSent()).toEqual({ includeThoughts: true, thinkingBudget: 1024 });
    await billedGemini();
  });

  it('Claude thinking is not sent to an OpenAI model that does not reason', async () => {
    const message = await f.anthropic.messages.create({
      model: 'gpt-4.1',
      max_tokens: 4000,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      messages: [{ role: 'user', content: 'Hello' }],
    });
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'Hello from the OpenAI stand-in.' });
    expect(f.chat.requests.at(-1)!.body.reasoning_effort).toBeUndefined();
  });

  it('Gemini thinkingConfig to Claude as thinking', async () => {
    const answer = await f.google.models.generateContent({
      model: 'claude-sonnet-4-5',
      contents: 'Think, then answer.',
      config: { thinkingConfig: { thinkingBudget: 4000, includeThoughts: true } },
    });
    expect(f.claude.requests.at(-1)!.body.thinking).toEqual({ type: 'enabled', budget_tokens: 8192 });
    expect(answer.candidates![0]!.content!.parts![0]).toMatchObject({ thought: true, text: 'Let me think.' });
    const log = await f.lastLog();
    expect([log.prompt_tokens, log.completion_tokens]).toEqual([
      f.claude.lastUsage!.input_tokens,
      f.claude.lastUsage!.output_tokens,
    ]);
  });
});
