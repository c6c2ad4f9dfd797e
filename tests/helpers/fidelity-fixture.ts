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
import { startClaudeStandIn, type ClaudeStandIn } from './upstreams/claude.js';
import { startOpenAIChatStandIn, type OpenAIChatStandIn } from './upstreams/openai-chat.js';

export const GEMINI_MODELS = ['gemini-2.5-flash', 'gemini-2.5-pro', 'gemini-3-pro-preview', 'gemini-embedding-001'];
/** Sonnet 4.5 has structured outputs; Sonnet 4 has not (a forced tool stands in). */
export const CLAUDE_MODELS = ['claude-sonnet-4-5', 'claude-sonnet-4-20250514'];
/** gpt-4.1 does not reason (refuses reasoning_effort); gpt-5-mini does. */
export const OPENAI_MODELS = ['gpt-4.1', 'gpt-5-mini'];

export interface FidelityFixture extends RelayFixture {
  gemini: GeminiStandIn;
  claude: ClaudeStandIn;
  chat: OpenAIChatStandIn;
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
  const [gemini, claude, chat] = await Promise.all([startGeminiStandIn(), startClaudeStandIn(), startOpenAIChatStandIn()]);
  const ratios = JSON.parse(f.tg.gateway.ctx.options.raw('ModelRatio'));
  for (const m of [...GEMINI_MODELS, ...CLAUDE_MODELS, ...OPENAI_MODELS]) ratios[m] = 0.5;
  await f.root.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify(ratios) });
  await f.addChannel({ type: 24, name: 'gemini', key: 'AIza-upstream', base_url: gemini.url, models: GEMINI_MODELS.join(',') });
  await f.addChannel({ type: 14, name: 'claude', key: 'sk-ant-upstream', base_url: claude.url, models: CLAUDE_MODELS.join(',') });
  await f.addChannel({ type: 1, name: 'openai', key: 'sk-openai-upstream', base_url: chat.url, models: OPENAI_MODELS.join(',') });
  const url = f.tg.url;
  return {
    ...f,
    gemini,
    claude,
    chat,
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
      await Promise.all([gemini.close(), claude.close(), chat.close()]);
    },
  };
}
