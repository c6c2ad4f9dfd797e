/**
 * Google PaLM 2 (type 11): `POST /v1beta2/models/{model}:generateMessage?key=…`. PaLM has no
 * streaming call: a client asking for a stream gets the whole answer as a single chunk.
 */
import type { ProviderDefinition } from '../types.js';
import { callUpstream } from '../../call/call-upstream.js';
import { errorMessageOf, httpLikeAnswer, oneEventStream, readJson } from '../kit/http-like.js';
import { convertPalmResponse, convertToPalmRequest, createPalmStreamParser, palmErrorOf } from './convert.js';

const DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';

export const palm: ProviderDefinition = {
  name: 'PaLM2',
  protocol: 'openai',
  streamUsageOption: false,
  supports: (endpoint) => endpoint === 'chat.completions',
  target(channel, _endpoint, model) {
    const base = (channel.base_url || DEFAULT_BASE_URL).replace(/\/+$/, '');
    const url = `${base}/v1beta2/models/${encodeURIComponent(model)}:generateMessage?key=${encodeURIComponent(channel.key)}`;
    return { url, headers: {} };
  },
  chat: {
    request(channel, body) {
      return {
        target: palm.target(channel, 'chat.completions', String(body.model)),
        body: JSON.stringify(convertToPalmRequest(body)),
      };
    },
    answer: (payload, model) => convertPalmResponse(payload, model),
    stream: (model) => createPalmStreamParser(model),
    errorMessage: (text, status) => errorMessageOf(text, status, (payload) => palmErrorOf(payload)?.message ?? null),
    async send(call, { stream, signal }) {
      const res = await callUpstream(call.target, call.body, 'application/json', signal);
      if (!stream || res.statusCode >= 400) return res;
      const { text, payload } = await readJson(res);
      return payload === null ? httpLikeAnswer(502, 'text/plain', text) : oneEventStream(payload);
    },
  },
};
