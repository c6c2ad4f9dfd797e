/**
 * Jina embeddings and rerank converters, replayed from tests/fixtures/providers/jina/. Pure unit tests.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  convertJinaEmbeddingsAnswer,
  convertJinaRerankAnswer,
  convertToJinaEmbeddings,
  jina,
} from '../../../server/relay/providers/jina/index.js';

const dir = new URL('../../fixtures/providers/jina/', import.meta.url);
const json = (name: string): any => JSON.parse(readFileSync(new URL(name, dir), 'utf8'));

describe('Jina embeddings', () => {
  it('asks for float vectors in Jina terms and passes Jina fields on', () => {
    expect(
      convertToJinaEmbeddings({
        model: 'jina-embeddings-v3',
        input: ['a', 'b'],
        encoding_format: 'base64',
        task: 'retrieval.query',
      }),
    ).toEqual({ model: 'jina-embeddings-v3', input: ['a', 'b'], task: 'retrieval.query', embedding_type: 'float' });
  });

  it('orders vectors by index and encodes them when base64 was asked for', () => {
    const floats = convertJinaEmbeddingsAnswer(json('embeddings.json'), 'jina-embeddings-v3', {});
    expect(floats.completion.data.map((d) => d.embedding)).toEqual([
      [0.0134, -0.0457, 0.0876, 0.0212],
      [-0.0203, 0.0454, 0.1102, -0.0661],
    ]);
    expect(floats.usage).toEqual({ promptTokens: 8, completionTokens: 0 });
    const encoded = convertJinaEmbeddingsAnswer(json('embeddings.json'), 'jina-embeddings-v3', { encoding_format: 'base64' });
    const bytes = Buffer.from(encoded.completion.data[0]!.embedding as string, 'base64');
    expect(bytes.readFloatLE(0)).toBeCloseTo(0.0134, 6);
    expect(bytes.length).toBe(16);
  });
});

describe('Jina rerank', () => {
  it('maps the answer to the gateway shape with prompt and total tokens', () => {
    const { completion, usage } = convertJinaRerankAnswer(json('rerank.json'), 'jina-reranker-v2-base-multilingual', {
      query: 'Organic skincare',
      documents: ['x', 'y', 'z'],
    });
    expect(usage).toEqual({ promptTokens: 815, completionTokens: 0 });
    expect(completion).toEqual({
      model: 'jina-reranker-v2-base-multilingual',
      results: [
        {
          index: 0,
          relevance_score: 0.8783142566680908,
          document: { text: 'Organic skincare for sensitive skin with aloe vera and chamomile.' },
        },
        {
          index: 2,
          relevance_score: 0.7624675869941711,
          document: { text: 'Bio-Hautpflege für empfindliche Haut mit Aloe Vera und Kamille.' },
        },
      ],
      usage: { prompt_tokens: 815, completion_tokens: 0, total_tokens: 815 },
    });
  });

  it('serves embeddings and rerank only, at /v1 paths', () => {
    const channel = { key: 'jina_key', base_url: null, other: null, openai_organization: null };
    expect(jina.target(channel, 'rerank', 'm').url).toBe('https://api.jina.ai/v1/rerank');
    expect(jina.target(channel, 'embeddings', 'm')).toEqual({
      url: 'https://api.jina.ai/v1/embeddings',
      headers: { authorization: 'Bearer jina_key' },
    });
    expect(jina.supports('chat.completions')).toBe(false);
  });
});
