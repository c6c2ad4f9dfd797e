/**
 * Kling (type 50): `POST /v1/videos/text2video|image2video` and `GET /v1/videos/{action}/{task_id}`,
 * answered as `{code, message, data}`. The key is `accessKey|secretKey`, sent as a short-lived JWT
 * (HS256, issuer the access key) made per call; a key without `|` is a ready token sent as it is.
 */
import { createHmac } from 'node:crypto';
import type { Channel } from '../../../db/types.js';
import { baseOf, rec, signedFile, text, type VideoPlatform } from '../../../tasks/video/platform.js';

const BASE = 'https://api.klingai.com';
const TOKEN_SECONDS = 1800;

const b64url = (v: string | Buffer) => Buffer.from(v).toString('base64url');

export function klingAuthorization(key: string): string {
  const [access, secret] = key.split('|').map((s) => s.trim());
  if (!access || !secret) return `Bearer ${key.trim()}`;
  const now = Math.floor(Date.now() / 1000);
  const unsigned = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(
    JSON.stringify({ iss: access, exp: now + TOKEN_SECONDS, nbf: now - 5 }),
  )}`;
  return `Bearer ${unsigned}.${b64url(createHmac('sha256', secret).update(unsigned).digest())}`;
}

const auth = (channel: Channel) => ({ authorization: klingAuthorization(channel.key) });

function aspect(size: string): string {
  const [w = 0, h = 0] = size.split('x').map(Number);
  return w === h ? '1:1' : w > h ? '16:9' : '9:16';
}

/** Our id of a Kling task names its action too: the query path needs it. */
const ACTION = /^(text2video|image2video):([\w-]+)$/;

export const klingVideo: VideoPlatform = {
  name: 'Kling',
  submit(channel, req) {
    const action = req.image ? 'image2video' : 'text2video';
    return {
      url: `${baseOf(channel, BASE)}/v1/videos/${action}`,
      headers: auth(channel),
      body: {
        model_name: req.model,
        prompt: req.prompt,
        duration: String(req.seconds),
        aspect_ratio: aspect(req.size),
        mode: 'std',
        ...(req.image ? { image: req.image.data.toString('base64') } : {}),
      },
    };
  },
  submitted(status, answer, req) {
    const a = rec(answer);
    const id = text(rec(a.data).task_id);
    if (status === 200 && a.code === 0 && /^[\w-]+$/.test(id)) return { id: `${req.image ? 'image2video' : 'text2video'}:${id}` };
    return { error: text(a.message) };
  },
  query(channel, id) {
    const m = ACTION.exec(id);
    const [action, taskId] = m ? [m[1], m[2]] : ['text2video', id];
    return {
      method: 'GET',
      url: `${baseOf(channel, BASE)}/v1/videos/${action}/${encodeURIComponent(taskId!)}`,
      headers: auth(channel),
    };
  },
  state(status, answer) {
    const a = rec(answer);
    const d = rec(a.data);
    if (status !== 200 || a.code !== 0 || !text(d.task_status)) return null;
    switch (d.task_status) {
      case 'submitted':
        return { status: 'queued', progress: 0 };
      case 'processing':
        return { status: 'in_progress', progress: 50 };
      case 'failed':
        return { status: 'failed', progress: 100, error: text(d.task_status_msg) || 'video generation failed' };
      case 'succeed': {
        const videos = rec(d.task_result).videos;
        const video = rec(Array.isArray(videos) ? videos[0] : undefined);
        const seconds = Number(video.duration);
        return {
          status: 'completed',
          progress: 100,
          file: text(video.url),
          ...(Number.isFinite(seconds) && seconds > 0 ? { seconds } : {}),
        };
      }
      default:
        return null;
    }
  },
  content: (_channel, _id, file) => signedFile(file),
};
