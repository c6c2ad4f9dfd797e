/** Fixtures and builders shared by the Gemini converter tests. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SseParser, type SseEvent } from '../../../server/relay/wire/sse.js';
import { type GeminiSettings } from '../../../server/relay/wire/gemini/gemini-settings.js';
import type { OpenAIChatRequest } from '../../../server/relay/wire/openai/openai-types.js';

export const dir = fileURLToPath(new URL('../../fixtures/providers/gemini/', import.meta.url));
export const raw = (name: string) => readFileSync(dir + name, 'utf8');
export const fixture = (name: string) => JSON.parse(raw(name)) as any;

export const settings = (over: Partial<GeminiSettings> = {}): GeminiSettings => ({
  safetySettings: {},
  versionSettings: {},
  imageModels: ['gemini-2.0-flash-exp-image-generation'],
  thinkingAdapterEnabled: false,
  thinkingBudgetPercentage: 0.6,
  ...over,
});

/** Deterministic ids: id1, id2, … */
export const ids = () => {
  let n = 0;
  return () => `id${++n}`;
};

export const chat = (over: Partial<OpenAIChatRequest>): OpenAIChatRequest => ({
  model: 'gemini-2.5-flash',
  messages: [{ role: 'user', content: 'Hi' }],
  ...over,
});

export function sseEvents(text: string): SseEvent[] {
  const parser = new SseParser();
  return [...parser.push(new TextEncoder().encode(text)), ...parser.end()];
}

export const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';
