/**
 * OpenAI Sora (type 55) through its own Videos API: `POST /v1/videos` (JSON, or multipart when an
 * input image goes with it), `GET /v1/videos/{id}` and `GET /v1/videos/{id}/content`, Bearer key.
 */
import type { Channel } from '../../../db/types.js';
import { baseOf, rec, text, type PlatformCall, type VideoPlatform, type VideoStatus } from '../../../tasks/video/platform.js';

const BASE = 'https://api.openai.com';
const STATUSES: readonly VideoStatus[] = ['queued', 'in_progress', 'completed', 'failed'];

const auth = (channel: Channel) => ({ authorization: `Bearer ${channel.key}` });
const videoUrl = (channel: Channel, id: string) => `${baseOf(channel, BASE)}/v1/videos/${encodeURIComponent(id)}`;

export const soraVideo: VideoPlatform = {
  name: 'Sora',
  submit(channel, req): PlatformCall {
    const fields = { model: req.model, prompt: req.prompt, seconds: String(req.seconds), size: req.size };
    const url = `${baseOf(channel, BASE)}/v1/videos`;
    if (!req.image) return { url, headers: auth(channel), body: fields };
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('input_reference', new Blob([new Uint8Array(req.image.data)], { type: req.image.mime }), 'input_reference');
    return { url, headers: auth(channel), body: form };
  },
  submitted(status, answer) {
    const a = rec(answer);
    if (status === 200 && text(a.id)) return { id: text(a.id) };
    return { error: text(rec(a.error).message) };
  },
  query: (channel, id) => ({ method: 'GET', url: videoUrl(channel, id), headers: auth(channel) }),
  state(status, answer) {
    const a = rec(answer);
    const s = STATUSES.find((x) => x === a.status);
    if (status !== 200 || !s) return null;
    const seconds = Number(a.seconds);
    return {
      status: s,
      progress: Math.max(0, Math.min(100, Number(a.progress) || (s === 'completed' ? 100 : 0))),
      ...(Number.isFinite(seconds) && seconds > 0 ? { seconds } : {}),
      ...(s === 'failed' ? { error: text(rec(a.error).message) || 'video generation failed' } : {}),
    };
  },
  remove: (channel, id) => ({ method: 'DELETE', url: videoUrl(channel, id), headers: auth(channel) }),
  content: (channel, id) => ({ method: 'GET', url: `${videoUrl(channel, id)}/content`, headers: auth(channel) }),
};
