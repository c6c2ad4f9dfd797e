/**
 * The ground of the client-fidelity tests: the relay fixture with wire-faithful stand-ins of
 * Gemini, Claude and OpenAI chat behind channels of their types, priced, and the third-party
 * clients (official SDKs, the Vercel AI SDK providers, LangChain chat models) pointed at the gateway.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { createOpenAI } from '@ai-sdk/openai';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { startRelayFixture, type RelayFixture } from './relay-fixture.js';
import { startGeminiStandIn, type GeminiStandIn } from './upstreams/gemini.js';

export const GEMINI_MODELS = ['gemini-2.5-flash', 'gemini-2.5-pro', 'gemini-3-pro-preview', 'gemini-embedding-001'];

export interface FidelityFixture extends RelayFixture {
  gemini: GeminiStandIn;
  anthropic: Anthropic;
  google: GoogleGenAI;
  sdk: {
    openai: ReturnType<typeof createOpenAI>;
    anthropic: ReturnType<typeof createAnthropic>;
    google: ReturnType<typeof createGoogleGenerativeAI>;
  };
  /** The log row's `other` of the user's newest call. */
  lastOther(): Promise<Record<string, unknown>>;
}

export async function startFidelityFixture(): Promise<FidelityFixture> {
  const f = await startRelayFixture('sqlite');
  const gemini = await startGeminiStandIn();
  const ratios = JSON.parse(f.tg.gateway.ctx.options.raw('ModelRatio'));
  for (const m of GEMINI_MODELS) ratios[m] ??= 0.5;
  await f.root.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify(ratios) });
  await f.addChannel({ type: 24, name: 'gemini', key: 'AIza-upstream', base_url: gemini.url, models: GEMINI_MODELS.join(',') });
  const url = f.tg.url;
  return {
    ...f,
    gemini,
    anthropic: new Anthropic({ apiKey: f.key, baseURL: url, maxRetries: 0 }),
    google: new GoogleGenAI({ apiKey: f.key, httpOptions: { baseUrl: url } }),
    sdk: {
      openai: createOpenAI({ apiKey: f.key, baseURL: `${url}/v1` }),
      anthropic: createAnthropic({ apiKey: f.key, baseURL: `${url}/v1` }),
      google: createGoogleGenerativeAI({ apiKey: f.key, baseURL: `${url}/v1beta` }),
    },
    async lastOther() {
      return JSON.parse((await f.lastLog()).other ?? '{}');
    },
    async close() {
      await f.close();
      await gemini.close();
    },
  };
}
