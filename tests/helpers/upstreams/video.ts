/**
 * Local servers speaking the video vendors' wire formats. Each task lives in memory and moves a step
 * on every query: queued → in progress → completed (or failed). Prompt words steer it:
 * `will-fail` fails after one in-progress answer, `fail-now` fails at the first query, `rejected`
 * is refused on submit (400), `made-N` reports N seconds made.
 *
 * - Sora: `POST /v1/videos` (JSON or multipart), `GET /v1/videos/{id}`, `GET /v1/videos/{id}/content`,
 *   `Authorization: Bearer <key>`.
 * - Veo: `POST /v1beta/models/{model}:predictLongRunning`, `GET /v1beta/models/{m}/operations/{id}`,
 *   the sample at `GET /v1beta/files/{id}:download?alt=media` (302 to a signed address), all with
 *   `x-goog-api-key`.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { RecordedRequest } from './openai.js';
import { listenLocally, sendJson as send } from './stand-in-server.js';

export interface VideoStandInTask {
  id: string;
  model: string;
  prompt: string;
  seconds: number;
  size: string;
  step: number;
}

export interface VideoStandIn {
  url: string;
  key: string;
  requests: RecordedRequest[];
  tasks: Map<string, VideoStandInTask>;
  /** Delay of every query answer (to overlap concurrent pollers). */
  queryDelayMs: number;
  /** The video file every completed task serves. */
  file: Buffer;
  close(): Promise<void>;
}

/** A fake MP4 large enough to need many chunks: an `ftyp` box, then a counting pattern. */
export const VIDEO_BYTES = (() => {
  const b = Buffer.alloc(3 * 1024 * 1024 + 17);
  b.write('\0\0\0\x18ftypmp42', 0, 'latin1');
  for (let i = 12; i < b.length; i++) b[i] = i % 251;
  return b;
})();

function readRaw(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

type Phase = 'queued' | 'in_progress' | 'completed' | 'failed';

function phase(t: VideoStandInTask): Phase {
  if (t.prompt.includes('fail-now') && t.step >= 1) return 'failed';
  if (t.step === 0) return 'queued';
  if (t.step === 1) return 'in_progress';
  return t.prompt.includes('will-fail') ? 'failed' : 'completed';
}

function madeSeconds(t: VideoStandInTask): number {
  const m = /made-(\d+)/.exec(t.prompt);
  return m ? Number(m[1]) : t.seconds;
}

/** Streams the file in 64 KiB writes. */
function sendFile(res: ServerResponse, file: Buffer): void {
  res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': file.length });
  for (let i = 0; i < file.length; i += 65_536) res.write(file.subarray(i, i + 65_536));
  res.end();
}

async function standIn(
  key: string,
  handle: (s: VideoStandIn, req: IncomingMessage, res: ServerResponse) => Promise<unknown>,
): Promise<VideoStandIn> {
  const s: VideoStandIn = {
    url: '',
    key,
    requests: [],
    tasks: new Map(),
    queryDelayMs: 0,
    file: VIDEO_BYTES,
    close: async () => undefined,
  };
  const server = createServer((req, res) => {
    void readRaw(req).then(async (raw) => {
      const ct = req.headers['content-type'] ?? '';
      let body: any = raw.toString('utf8');
      if (ct.includes('application/json')) body = JSON.parse(body);
      else if (ct.startsWith('multipart/form-data'))
        body = Object.fromEntries(await new Response(new Uint8Array(raw), { headers: { 'content-type': ct } }).formData());
      s.requests.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      await handle(s, req, res);
    });
  });
  const listening = await listenLocally(server);
  s.url = listening.url;
  s.close = listening.close;
  return s;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function startSoraStandIn(key = 'sora-upstream-key'): Promise<VideoStandIn> {
  const view = (t: VideoStandInTask) => {
    const p = phase(t);
    return {
      id: t.id,
      object: 'video',
      model: t.model,
      status: p,
      progress: p === 'completed' ? 100 : p === 'in_progress' ? 42 : 0,
      created_at: 1_760_000_000,
      completed_at: p === 'completed' ? 1_760_000_090 : null,
      expires_at: null,
      seconds: String(p === 'completed' ? madeSeconds(t) : t.seconds),
      size: t.size,
      remixed_from_video_id: null,
      error: p === 'failed' ? { code: 'video_generation_failed', message: 'Video generation failed: content policy' } : null,
    };
  };
  return standIn(key, async (s, req, res) => {
    if (req.headers.authorization !== `Bearer ${s.key}`) {
      return send(res, 401, {
        error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' },
      });
    }
    const body = s.requests.at(-1)!.body;
    const path = new URL(req.url!, 'http://x').pathname;
    if (req.method === 'POST' && path === '/v1/videos') {
      if (String(body.prompt).includes('rejected')) {
        return send(res, 400, {
          error: {
            message: 'Your request was blocked by our moderation system.',
            type: 'invalid_request_error',
            code: 'moderation_blocked',
          },
        });
      }
      const t = {
        id: `video_${randomUUID().replace(/-/g, '')}`,
        model: body.model,
        prompt: body.prompt,
        seconds: Number(body.seconds ?? 4),
        size: body.size ?? '720x1280',
        step: 0,
      };
      s.tasks.set(t.id, t);
      return send(res, 200, view(t));
    }
    const m = /^\/v1\/videos\/([^/]+)(\/content)?$/.exec(path);
    const t = m && s.tasks.get(m[1]!);
    if (!t) return send(res, 404, { error: { message: 'Video not found', type: 'invalid_request_error', code: null } });
    if (m![2]) return phase(t) === 'completed' ? sendFile(res, s.file) : send(res, 404, { error: { message: 'not ready' } });
    if (s.queryDelayMs) await sleep(s.queryDelayMs);
    t.step++;
    return send(res, 200, view(t));
  });
}

export function startVeoStandIn(key = 'veo-upstream-key'): Promise<VideoStandIn> {
  return standIn(key, async (s, req, res) => {
    const path = new URL(req.url!, 'http://x').pathname;
    const signed = /^\/signed\/([\w-]+)$/.exec(path);
    // The signed address needs no key: it is the vendor's own short-lived link.
    if (signed) return s.tasks.has(signed[1]!) ? sendFile(res, s.file) : send(res, 404, {});
    if (req.headers['x-goog-api-key'] !== s.key) {
      return send(res, 403, {
        error: { code: 403, message: "Method doesn't allow unregistered callers.", status: 'PERMISSION_DENIED' },
      });
    }
    const body = s.requests.at(-1)!.body;
    const submit = /^\/v1beta\/models\/([\w.-]+):predictLongRunning$/.exec(path);
    if (req.method === 'POST' && submit) {
      const prompt = String(body.instances?.[0]?.prompt ?? '');
      if (prompt.includes('rejected'))
        return send(res, 400, { error: { code: 400, message: 'The prompt was blocked.', status: 'INVALID_ARGUMENT' } });
      const id = randomUUID().replace(/-/g, '').slice(0, 12);
      s.tasks.set(id, {
        id,
        model: submit[1]!,
        prompt,
        seconds: Number(body.parameters?.durationSeconds ?? 8),
        size: '',
        step: 0,
      });
      return send(res, 200, { name: `models/${submit[1]}/operations/${id}` });
    }
    const op = /^\/v1beta\/models\/([\w.-]+)\/operations\/([\w-]+)$/.exec(path);
    const download = /^\/v1beta\/files\/([\w-]+):download$/.exec(path);
    if (download) {
      return s.tasks.has(download[1]!)
        ? (res.writeHead(302, { location: `${s.url}/signed/${download[1]}?sig=abc` }), res.end())
        : send(res, 404, { error: { code: 404, message: 'File not found', status: 'NOT_FOUND' } });
    }
    const t = op && s.tasks.get(op[2]!);
    if (!t) return send(res, 404, { error: { code: 404, message: 'Operation not found', status: 'NOT_FOUND' } });
    if (s.queryDelayMs) await sleep(s.queryDelayMs);
    t.step++;
    const name = `models/${t.model}/operations/${t.id}`;
    const p = phase(t);
    if (p === 'queued' || p === 'in_progress') return send(res, 200, { name });
    if (p === 'failed')
      return send(res, 200, { name, done: true, error: { code: 3, message: 'Video generation failed due to safety filters' } });
    return send(res, 200, {
      name,
      done: true,
      response: {
        '@type': 'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse',
        generateVideoResponse: { generatedSamples: [{ video: { uri: `${s.url}/v1beta/files/${t.id}:download?alt=media` } }] },
      },
    });
  });
}
