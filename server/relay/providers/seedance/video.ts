/**
 * Volcengine Seedance (Ark, type 54 — and Volcengine channels, type 45):
 * `POST /api/v3/contents/generations/tasks` with the prompt's text commands (`--duration`,
 * `--resolution`, `--ratio`) and an optional image as content parts, then
 * `GET /api/v3/contents/generations/tasks/{id}`; the finished file is a signed `video_url`.
 */
import type { Channel } from '../../../db/types.js';
import { baseOf, rec, signedFile, text, type VideoPlatform } from '../../../tasks/video/platform.js';

const BASE = 'https://ark.cn-beijing.volces.com';
const PATH = '/api/v3/contents/generations/tasks';

const auth = (channel: Channel) => ({ authorization: `Bearer ${channel.key}` });

function commands(seconds: number, size: string): string {
  const [w = 0, h = 0] = size.split('x').map(Number);
  const ratio = w === h ? '1:1' : w > h ? '16:9' : '9:16';
  const resolution = Math.min(w, h) >= 1080 ? '1080p' : Math.min(w, h) >= 720 ? '720p' : '480p';
  return `--duration ${seconds} --resolution ${resolution} --ratio ${ratio}`;
}

export const seedanceVideo: VideoPlatform = {
  name: 'Seedance',
  submit(channel, req) {
    const content: unknown[] = [{ type: 'text', text: `${req.prompt} ${commands(req.seconds, req.size)}` }];
    if (req.image) {
      content.push({
        type: 'image_url',
        image_url: { url: `data:${req.image.mime};base64,${req.image.data.toString('base64')}` },
      });
    }
    return { url: `${baseOf(channel, BASE)}${PATH}`, headers: auth(channel), body: { model: req.model, content } };
  },
  submitted(status, answer) {
    const a = rec(answer);
    if (status === 200 && /^[\w-]+$/.test(text(a.id))) return { id: text(a.id) };
    return { error: text(rec(a.error).message) };
  },
  query: (channel, id) => ({
    method: 'GET',
    url: `${baseOf(channel, BASE)}${PATH}/${encodeURIComponent(id)}`,
    headers: auth(channel),
  }),
  state(status, answer) {
    const a = rec(answer);
    if (status !== 200 || !text(a.id)) return null;
    switch (a.status) {
      case 'queued':
        return { status: 'queued', progress: 0 };
      case 'running':
        return { status: 'in_progress', progress: 50 };
      case 'failed':
      case 'cancelled':
        return { status: 'failed', progress: 100, error: text(rec(a.error).message) || `task ${text(a.status)}` };
      case 'succeeded': {
        const seconds = Number(a.duration);
        return {
          status: 'completed',
          progress: 100,
          file: text(rec(a.content).video_url),
          ...(Number.isFinite(seconds) && seconds > 0 ? { seconds } : {}),
        };
      }
      default:
        return null;
    }
  },
  content: (_channel, _id, file) => signedFile(file),
};
