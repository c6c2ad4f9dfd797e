/**
 * MiniMax Hailuo on a MiniMax channel (type 35): `POST /v1/video_generation`, then
 * `GET /v1/query/video_generation?task_id=…` until a `file_id`, whose short-lived download address
 * `GET /v1/files/retrieve?file_id=…` gives when the file is wanted. Answers carry `base_resp`.
 */
import type { Channel } from '../../../db/types.js';
import { baseOf, rec, signedFile, text, type VideoPlatform } from '../../../tasks/video/platform.js';

const BASE = 'https://api.minimax.chat';

const auth = (channel: Channel) => ({ authorization: `Bearer ${channel.key}` });
const ok = (a: Record<string, unknown>) => rec(a.base_resp).status_code === 0;
/** `base_resp.status_code` of a refused submission → the HTTP status it amounts to. */
const REFUSALS: Record<number, number> = { 1002: 429, 1004: 401, 1008: 403, 1026: 400, 1027: 400, 2013: 400 };

export const hailuoVideo: VideoPlatform = {
  name: 'Hailuo',
  submit(channel, req) {
    const [w = 0, h = 0] = req.size.split('x').map(Number);
    return {
      url: `${baseOf(channel, BASE)}/v1/video_generation`,
      headers: auth(channel),
      body: {
        model: req.model,
        prompt: req.prompt,
        duration: req.seconds,
        resolution: Math.min(w, h) >= 1080 ? '1080P' : '768P',
        ...(req.image ? { first_frame_image: `data:${req.image.mime};base64,${req.image.data.toString('base64')}` } : {}),
      },
    };
  },
  submitted(status, answer) {
    const a = rec(answer);
    if (status === 200 && ok(a) && /^[\w-]+$/.test(text(a.task_id))) return { id: text(a.task_id) };
    const code = Number(rec(a.base_resp).status_code);
    return { error: text(rec(a.base_resp).status_msg), ...(status === 200 ? { status: REFUSALS[code] ?? 500 } : {}) };
  },
  query: (channel, id) => ({
    method: 'GET',
    url: `${baseOf(channel, BASE)}/v1/query/video_generation?task_id=${encodeURIComponent(id)}`,
    headers: auth(channel),
  }),
  state(status, answer) {
    const a = rec(answer);
    if (status !== 200 || !ok(a)) return null;
    switch (a.status) {
      case 'Preparing':
      case 'Queueing':
        return { status: 'queued', progress: 0 };
      case 'Processing':
        return { status: 'in_progress', progress: 50 };
      case 'Fail':
        return { status: 'failed', progress: 100, error: text(rec(a.base_resp).status_msg) || 'video generation failed' };
      case 'Success':
        return { status: 'completed', progress: 100, file: text(a.file_id) };
      default:
        return null;
    }
  },
  locate: {
    call: (channel, _id, file) => ({
      method: 'GET',
      url: `${baseOf(channel, BASE)}/v1/files/retrieve?file_id=${encodeURIComponent(file ?? '')}`,
      headers: auth(channel),
    }),
    address(status, answer) {
      const a = rec(answer);
      const url = text(rec(a.file).download_url);
      return status === 200 && ok(a) && url ? url : null;
    },
  },
  content: (_channel, _id, file) => signedFile(file),
};
