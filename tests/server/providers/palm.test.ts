/**
 * PaLM 2 (type 11): generateMessage requests, answers (and blocked answers), the one-chunk stream,
 * replayed from tests/fixtures/providers/palm/. No network.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  convertPalmResponse,
  convertToPalmRequest,
  createPalmStreamParser,
  palmErrorOf,
} from '../../../server/relay/providers/palm/convert.js';
import { palm } from '../../../server/relay/providers/palm/index.js';

const dir = new URL('../../fixtures/providers/palm/', import.meta.url);
const text = (name: string) => readFileSync(new URL(name, dir), 'utf8');

describe('PaLM', () => {
  it('posts to v1beta2 generateMessage with the key in the query', () => {
    const channel = { key: 'AIza k', base_url: null, other: null, openai_organization: null };
    expect(palm.target(channel, 'chat.completions', 'chat-bison-001').url).toBe(
      'https://generativelanguage.googleapis.com/v1beta2/models/chat-bison-001:generateMessage?key=AIza%20k',
    );
  });

  it('builds the prompt: context from the system prompt, messages authored 0 and 1', () => {
    expect(
      convertToPalmRequest({
        model: 'chat-bison-001',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello' },
          { role: 'user', content: 'Again' },
        ],
        temperature: 0.2,
        top_p: 0.9,
        top_k: 40,
      }),
    ).toEqual({
      prompt: {
        context: 'Be brief.',
        messages: [
          { author: '0', content: 'Hi' },
          { author: '1', content: 'Hello' },
          { author: '0', content: 'Again' },
        ],
      },
      temperature: 0.2,
      topP: 0.9,
      topK: 40,
    });
  });

  it('converts the first candidate; a blocked answer finishes with content_filter; no usage is claimed', () => {
    const { completion, usage } = convertPalmResponse(JSON.parse(text('message.json')), 'chat-bison-001');
    expect(completion).toMatchObject({
      choices: [{ message: { content: 'Hello! How can I help you today?' }, finish_reason: 'stop' }],
    });
    expect(usage).toBeNull();
    const blocked = convertPalmResponse(JSON.parse(text('filtered.json')), 'chat-bison-001').completion;
    expect(blocked).toMatchObject({ choices: [{ message: { content: '' }, finish_reason: 'content_filter' }] });
  });

  it('turns the whole answer, sent as one event, into a complete stream', () => {
    const events = createPalmStreamParser('chat-bison-001').push({ event: 'message', data: text('message.json') });
    expect(events.map((e) => e.type)).toEqual(['start', 'text', 'finish']);
    expect(events[1]).toEqual({ type: 'text', index: 0, text: 'Hello! How can I help you today?' });
  });

  it("reads Google's error shape", () => {
    expect(palmErrorOf(JSON.parse(text('error-invalid-key.json')))).toEqual({
      status: 'INVALID_ARGUMENT',
      message: 'API key not valid. Please pass a valid API key.',
    });
  });
});
