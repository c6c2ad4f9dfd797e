import { describe, expect, it } from 'vitest';
import { completionText, promptText } from '../../server/relay/wire/openai/usage.js';

// The text local counts read when an upstream reports no usage, in every client format.
describe('prompt and completion text for local counts', () => {
  it('reads prompts in OpenAI, Claude and Gemini shapes', () => {
    expect(promptText('chat.completions', { messages: [{ role: 'user', content: 'hi' }] })).toBe('hi');
    expect(promptText('chat.completions', { system: [{ type: 'text', text: 'be brief' }], messages: [] })).toBe('be brief');
    expect(
      promptText('chat.completions', {
        systemInstruction: { parts: [{ text: 'sys' }] },
        contents: [
          { role: 'user', parts: [{ text: 'one' }, { inlineData: {} }] },
          { role: 'model', parts: [{ text: 'two' }] },
        ],
      }),
    ).toBe('sys\none\ntwo');
    expect(
      promptText('embeddings', { requests: [{ content: { parts: [{ text: 'a' }] } }, { content: { parts: [{ text: 'b' }] } }] }),
    ).toBe('a\nb');
  });

  it('reads whole answers of the Responses API, Claude and Gemini', () => {
    expect(
      completionText({
        output: [
          { type: 'reasoning', summary: [{ type: 'summary_text', text: 'think ' }] },
          { type: 'message', content: [{ type: 'output_text', text: 'Hello' }] },
          { type: 'function_call', arguments: '{"x":1}' },
        ],
      }),
    ).toBe('think Hello{"x":1}');
    expect(
      completionText({
        content: [
          { type: 'thinking', thinking: 'hm' },
          { type: 'text', text: 'Yes' },
        ],
      }),
    ).toBe('Yeshm');
    expect(completionText({ candidates: [{ content: { parts: [{ text: 'Paris' }] } }] })).toBe('Paris');
  });
});
