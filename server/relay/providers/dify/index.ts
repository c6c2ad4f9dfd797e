/** Dify (type 37): an app's `/v1/chat-messages` with the app's key as a Bearer token. */
import type { ChannelAccess, ProviderDefinition } from '../types.js';
import type { UpstreamTarget } from '../../call/call-upstream.js';
import { convertDifyAnswer, convertToDifyChat, createDifyStreamParser, difyErrorMessage } from './convert-dify.js';

const DEFAULT_BASE_URL = 'https://api.dify.ai';

function targetOf(channel: ChannelAccess): UpstreamTarget {
  const base = (channel.base_url || DEFAULT_BASE_URL).replace(/\/+$/, '');
  return { url: `${base}/v1/chat-messages`, headers: { authorization: `Bearer ${channel.key}` } };
}

export const dify: ProviderDefinition = {
  name: 'Dify',
  protocol: 'openai',
  streamUsageOption: false,
  supports: (endpoint) => endpoint === 'chat.completions',
  target: targetOf,
  chat: {
    request: (channel, body, stream) => ({ target: targetOf(channel), body: JSON.stringify(convertToDifyChat(body, stream)) }),
    answer: (payload, model) => convertDifyAnswer(payload, model),
    stream: (model) => createDifyStreamParser(model),
    errorMessage: difyErrorMessage,
  },
};
