/**
 * Google Veo on a Gemini channel (type 24): `POST /v1beta/models/{model}:predictLongRunning` starts an
 * operation, `GET /v1beta/{operation}` reports it, and the finished sample is a file URI downloaded
 * with the key in the `x-goog-api-key` header — never in a URL anyone sees; the URI stays server-side.
 */
import type { Channel } from '../../../db/types.js';
import { baseOf, rec, text, type PlatformCall, type VideoPlatform, type VideoRequest } from '../../../tasks/video/platform.js';

const BASE = 'https://generativelanguage.googleapis.com';
/** Operation names are paths the vendor made (`models/veo-…/operations/…`): nothing else is followed. */
const OPERATION = /^models\/[\w.-]+\/operations\/[\w.-]+$/;

const auth = (channel: Channel) => ({ 'x-goog-api-key': channel.key });

function shape(size: string): { aspectRatio: string; resolution: string } {
  const [w = 0, h = 0] = size.split('x').map(Number);
  return { aspectRatio: w >= h ? '16:9' : '9:16', resolution: Math.max(w, h) >= 1920 ? '1080p' : '720p' };
}

/** Veo's `predictLongRunning` body, which Vertex AI takes too. */
export function veoPrediction(req: VideoRequest): { instances: unknown[]; parameters: Record<string, unknown> } {
  const image = req.image && { bytesBase64Encoded: req.image.data.toString('base64'), mimeType: req.image.mime };
  return {
    instances: [{ prompt: req.prompt, ...(image ? { image } : {}) }],
    parameters: { durationSeconds: req.seconds, ...shape(req.size) },
  };
}

export const veoVideo: VideoPlatform = {
  name: 'Veo',
  submit(channel, req): PlatformCall {
    return {
      url: `${baseOf(channel, BASE)}/v1beta/models/${encodeURIComponent(req.model)}:predictLongRunning`,
      headers: auth(channel),
      body: veoPrediction(req),
    };
  },
  submitted(status, answer) {
    const a = rec(answer);
    const name = text(a.name);
    if (status === 200 && OPERATION.test(name)) return { id: name };
    return { error: text(rec(a.error).message) };
  },
  query(channel, id) {
    if (!OPERATION.test(id)) throw new Error('not a Veo operation name');
    return { method: 'GET', url: `${baseOf(channel, BASE)}/v1beta/${id}`, headers: auth(channel) };
  },
  state(status, answer) {
    const a = rec(answer);
    if (status !== 200 || !text(a.name)) return null;
    if (a.done !== true) return { status: 'in_progress', progress: 50 };
    if (a.error !== undefined)
      return { status: 'failed', progress: 100, error: text(rec(a.error).message) || 'video generation failed' };
    const result = rec(rec(a.response).generateVideoResponse);
    const samples = Array.isArray(result.generatedSamples) ? result.generatedSamples : [];
    const file = text(rec(rec(samples[0]).video).uri);
    if (!file) {
      const filtered = Array.isArray(result.raiMediaFilteredReasons) ? result.raiMediaFilteredReasons.map(text).join('; ') : '';
      return { status: 'failed', progress: 100, error: filtered || 'no video in the answer' };
    }
    return { status: 'completed', progress: 100, file };
  },
  content(channel, _id, file) {
    if (!file) throw new Error('no file recorded');
    // The key goes only to the channel's own origin, never to wherever a URI might point.
    const own = new URL(file).origin === new URL(baseOf(channel, BASE)).origin;
    return { method: 'GET', url: file, headers: own ? auth(channel) : {} };
  },
};
