/**
 * Every client format the relay speaks, checked by the compiler: a ClientFormat without a
 * definition here is a type error (mirrors the provider registry).
 */
import type { ClientFormat } from '../types.js';
import type { ClientFormatDefinition } from './types.js';
import { openaiFormat } from './openai/edge.js';
import { claudeFormat } from './claude/edge.js';
import { geminiFormat } from './gemini/edge.js';

export const CLIENT_FORMATS = {
  openai: openaiFormat,
  claude: claudeFormat,
  gemini: geminiFormat,
} satisfies Record<ClientFormat, ClientFormatDefinition>;

export function clientFormat(client: ClientFormat): ClientFormatDefinition {
  return CLIENT_FORMATS[client];
}
