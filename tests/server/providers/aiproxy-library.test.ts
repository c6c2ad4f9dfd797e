/**
 * AI Proxy knowledge-base converters, replayed from tests/fixtures/providers/aiproxy-library/.
 * Pure unit tests.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../server/relay/wire/events.js';
import { SseParser } from '../../../server/relay/wire/sse.js';
import {
  aiProxyLibrary,
  convertLibraryAnswer,
  convertToLibraryRequest,
  createLibraryStreamParser,
  documentsText,
  libraryFailure,
} from '../../../server/relay/providers/aiproxy-library/index.js';

const dir = new URL('../../fixtures/providers/aiproxy-library/', import.meta.url);
const text = (name: string) => readFileSync(new URL(name, dir), 'utf8');

describe('AI Proxy knowledge base', () => {
  it('asks the last user message of the library named by the channel', () => {
    expect(
      convertToLibraryRequest(
        {
          model: 'gpt-3.5-turbo',
          messages: [
            { role: 'user', content: 'old question' },
            { role: 'assistant', content: 'old answer' },
            { role: 'user', content: [{ type: 'text', text: 'How long are logs kept?' }] },
          ],
        },
        'lib-42',
        true,
      ),
    ).toEqual({ model: 'gpt-3.5-turbo', query: 'How long are logs kept?', libraryId: 'lib-42', stream: true });
  });

  it('answers with the referenced documents listed after the text', () => {
    const { completion, usage } = convertLibraryAnswer(JSON.parse(text('answer.json')), 'gpt-3.5-turbo');
    expect(usage).toBeNull();
    expect(completion.choices[0]!.message.content).toBe(
      'The gateway keeps usage logs for 30 days.\n\n参考文档：\n1. [Usage logs](https://docs.example.com/logs)\n2. [Retention](https://docs.example.com/retention)',
    );
    expect(documentsText([])).toBe('');
  });

  it('streams content and appends the documents at the finishing event', () => {
    const sse = new SseParser();
    const parser = createLibraryStreamParser('gpt-3.5-turbo');
    const events: StreamEvent[] = [...sse.push(new TextEncoder().encode(text('stream.chunks.txt'))), ...sse.end()].flatMap((e) =>
      parser.push(e),
    );
    expect(
      events
        .filter((e) => e.type === 'text')
        .map((e) => (e as { text: string }).text)
        .join(''),
    ).toBe('The gateway keeps usage logs for 30 days.\n\n参考文档：\n1. [Usage logs](https://docs.example.com/logs)');
    expect(events.at(-1)).toEqual({ type: 'finish', index: 0, reason: 'stop' });
  });

  it('recognises failure answers', () => {
    expect(libraryFailure(JSON.parse(text('error-library.json')))).toBe('library not found');
    expect(libraryFailure(JSON.parse(text('answer.json')))).toBeNull();
  });

  it('posts to /api/library/ask with the key', () => {
    const channel = { key: 'ak-1', base_url: null, other: 'lib-42', openai_organization: null };
    expect(aiProxyLibrary.target(channel, 'chat.completions', 'm')).toEqual({
      url: 'https://api.aiproxy.io/api/library/ask',
      headers: { authorization: 'Bearer ak-1', 'api-key': 'ak-1' },
    });
  });
});
