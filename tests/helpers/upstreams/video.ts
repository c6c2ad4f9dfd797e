/**
 * Local servers speaking the video vendors' wire formats. Each task lives in memory and moves a step
 * on every query: queued → in progress → completed (or failed). Prompt words steer it:
 * `will-fail` fails after one in-progress answer, `fail-now` fails at the first query, `rejected`
 * is refused on submit (400), `made-N` reports N seconds made.
 *
 * - Sora: `POST /v1/videos` (JSON or multipart), `GET|DELETE /v1/videos/{id}`, `GET /v1/videos/{id}/content`,
 *   `Authorization: Bearer <key>`.
 * - Veo: `POST /v1beta/models/{model}:predictLongRunning`, `GET /v1beta/models/{m}/operations/{id}`,
 *   the sample at `GET /v1beta/files/{id}:download?alt=media` (302 to a signed address), all with
 *   `x-goog-api-key`.
 */
import { createHmac, randomUUID } from 'node:crypto';
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
  /** When set, a file answer stops after its first chunk until this settles. */
  hold: Promise<void> | null;
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

export function phase(t: VideoStandInTask): Phase {
  if (t.prompt.includes('fail-now') && t.step >= 1) return 'failed';
  if (t.step === 0) return 'queued';
  if (t.step === 1) return 'in_progress';
  return t.prompt.includes('will-fail') ? 'failed' : 'completed';
}

function madeSeconds(t: VideoStandInTask): number {
  const m = /made-(\d+)/.exec(t.prompt);
  return m ? Number(m[1]) : t.seconds;
}

/** Streams the file in 64 KiB writes (pausing after the first while `hold` is pending). */
async function sendFile(res: ServerResponse, file: Buffer, hold: Promise<void> | null = null): Promise<void> {
  res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': file.length });
  for (let i = 0; i < file.length; i += 65_536) {
    res.write(file.subarray(i, i + 65_536));
    if (i === 0 && hold) await hold;
  }
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
    hold: null,
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
    if (req.method === 'DELETE' && !m![2]) {
      s.tasks.delete(t.id);
      return send(res, 200, { id: t.id, object: 'video.deleted', deleted: true });
    }
    if (m![2])
      return phase(t) === 'completed' ? sendFile(res, s.file, s.hold) : send(res, 404, { error: { message: 'not ready' } });
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

/** Kling: `{code, message, data}` answers; the key is checked as an HS256 JWT issued by the access key. */
export function startKlingStandIn(access = 'kling-ak', secret = 'kling-sk'): Promise<VideoStandIn & { tokens: string[] }> {
  const tokens: string[] = [];
  const valid = (header: string | undefined) => {
    const jwt = /^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '';
    tokens.push(jwt);
    const [h, p, sig] = jwt.split('.');
    if (!h || !p || !sig) return false;
    const expected = createHmac('sha256', secret).update(`${h}.${p}`).digest('base64url');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const head = JSON.parse(Buffer.from(h, 'base64url').toString());
    const now = Date.now() / 1000;
    return sig === expected && head.alg === 'HS256' && claims.iss === access && claims.exp > now && claims.nbf <= now;
  };
  const view = (t: VideoStandInTask) => {
    const p = phase(t);
    const status = { queued: 'submitted', in_progress: 'processing', completed: 'succeed', failed: 'failed' }[p];
    return {
      code: 0,
      message: 'SUCCEED',
      request_id: randomUUID(),
      data: {
        task_id: t.id,
        task_status: status,
        ...(p === 'failed' ? { task_status_msg: 'Failure to pass the risk control system' } : {}),
        created_at: 1_760_000_000_000,
        updated_at: 1_760_000_090_000,
        ...(p === 'completed'
          ? {
              task_result: {
                videos: [{ id: `v-${t.id}`, url: `${s.url}/kling-cdn/${t.id}.mp4`, duration: String(madeSeconds(t)) }],
              },
            }
          : {}),
      },
    };
  };
  let s: VideoStandIn;
  return standIn(`${access}|${secret}`, async (self, req, res) => {
    s = self;
    const path = new URL(req.url!, 'http://x').pathname;
    const cdn = /^\/kling-cdn\/([\w-]+)\.mp4$/.exec(path);
    if (cdn) return self.tasks.has(cdn[1]!) ? sendFile(res, self.file) : send(res, 404, {});
    if (!valid(req.headers.authorization))
      return send(res, 401, { code: 1000, message: 'Authentication failed', request_id: randomUUID() });
    const body = self.requests.at(-1)!.body;
    const submit = /^\/v1\/videos\/(text2video|image2video)$/.exec(path);
    if (req.method === 'POST' && submit) {
      if (String(body.prompt).includes('rejected'))
        return send(res, 400, { code: 1301, message: 'Trigger the content security policy', request_id: randomUUID() });
      const t = {
        id: randomUUID().replace(/-/g, '').slice(0, 18),
        model: body.model_name,
        prompt: body.prompt,
        seconds: Number(body.duration),
        size: body.aspect_ratio,
        step: 0,
      };
      self.tasks.set(t.id, t);
      return send(res, 200, {
        code: 0,
        message: 'SUCCEED',
        request_id: randomUUID(),
        data: { task_id: t.id, task_status: 'submitted', created_at: 1_760_000_000_000, updated_at: 1_760_000_000_000 },
      });
    }
    const q = /^\/v1\/videos\/(text2video|image2video)\/([\w-]+)$/.exec(path);
    const t = q && self.tasks.get(q[2]!);
    if (!t) return send(res, 404, { code: 1203, message: 'task not found', request_id: randomUUID() });
    if (self.queryDelayMs) await sleep(self.queryDelayMs);
    t.step++;
    return send(res, 200, view(t));
  }).then((x) => Object.assign(x, { tokens }));
}

/** Seedance (Ark): OpenAI-style errors, tasks with `status` queued/running/succeeded/failed and a signed `video_url`. */
export function startSeedanceStandIn(key = 'ark-upstream-key'): Promise<VideoStandIn> {
  return standIn(key, async (s, req, res) => {
    const path = new URL(req.url!, 'http://x').pathname;
    const cdn = /^\/tos\/([\w-]+)\.mp4$/.exec(path);
    if (cdn) return s.tasks.has(cdn[1]!) ? sendFile(res, s.file) : send(res, 404, {});
    if (req.headers.authorization !== `Bearer ${s.key}`) {
      return send(res, 401, {
        error: {
          code: 'AuthenticationError',
          message: 'The API key in the request is missing or invalid.',
          type: 'Unauthorized',
        },
      });
    }
    const body = s.requests.at(-1)!.body;
    const base = '/api/v3/contents/generations/tasks';
    if (req.method === 'POST' && path === base) {
      const prompt = String(body.content?.[0]?.text ?? '');
      if (prompt.includes('rejected')) {
        return send(res, 400, {
          error: {
            code: 'InputTextSensitiveContentDetected',
            message: 'The request failed because the input text may contain sensitive information.',
            type: 'BadRequest',
          },
        });
      }
      const seconds = Number(/--duration (\d+)/.exec(prompt)?.[1] ?? 5);
      const t = {
        id: `cgt-${randomUUID().replace(/-/g, '').slice(0, 20)}`,
        model: body.model,
        prompt,
        seconds,
        size: '',
        step: 0,
      };
      s.tasks.set(t.id, t);
      return send(res, 200, { id: t.id });
    }
    const t = path.startsWith(`${base}/`) ? s.tasks.get(path.slice(base.length + 1)) : undefined;
    if (!t) return send(res, 404, { error: { code: 'ResourceNotFound', message: 'task not found', type: 'NotFound' } });
    if (s.queryDelayMs) await sleep(s.queryDelayMs);
    t.step++;
    const p = phase(t);
    return send(res, 200, {
      id: t.id,
      model: t.model,
      status: { queued: 'queued', in_progress: 'running', completed: 'succeeded', failed: 'failed' }[p],
      ...(p === 'completed'
        ? { content: { video_url: `${s.url}/tos/${t.id}.mp4?X-Tos-Signature=abc` }, duration: madeSeconds(t) }
        : {}),
      ...(p === 'failed'
        ? {
            error: {
              code: 'OutputVideoSensitiveContentDetected',
              message: 'The output video may contain sensitive information.',
            },
          }
        : {}),
      usage: { completion_tokens: 108900, total_tokens: 108900 },
      created_at: 1_760_000_000,
      updated_at: 1_760_000_090,
    });
  });
}

/** MiniMax Hailuo: `base_resp` answers, a `file_id` when done, its download address from files/retrieve. */
export function startHailuoStandIn(key = 'minimax-upstream-key'): Promise<VideoStandIn> {
  const baseResp = (code = 0, msg = 'success') => ({ status_code: code, status_msg: msg });
  return standIn(key, async (s, req, res) => {
    const url = new URL(req.url!, 'http://x');
    const cdn = /^\/oss\/([\w-]+)\.mp4$/.exec(url.pathname);
    if (cdn) return s.tasks.has(cdn[1]!) ? sendFile(res, s.file) : send(res, 404, {});
    if (req.headers.authorization !== `Bearer ${s.key}`) return send(res, 200, { base_resp: baseResp(1004, 'login fail') });
    const body = s.requests.at(-1)!.body;
    if (req.method === 'POST' && url.pathname === '/v1/video_generation') {
      if (String(body.prompt).includes('rejected'))
        return send(res, 200, { task_id: '', base_resp: baseResp(1026, 'input new_sensitive') });
      const t = {
        id: String(Date.now()) + String(s.tasks.size),
        model: body.model,
        prompt: body.prompt,
        seconds: Number(body.duration ?? 6),
        size: '',
        step: 0,
      };
      s.tasks.set(t.id, t);
      return send(res, 200, { task_id: t.id, base_resp: baseResp() });
    }
    if (url.pathname === '/v1/query/video_generation') {
      const t = s.tasks.get(url.searchParams.get('task_id') ?? '');
      if (!t) return send(res, 200, { base_resp: baseResp(2013, 'invalid params') });
      if (s.queryDelayMs) await sleep(s.queryDelayMs);
      t.step++;
      const p = phase(t);
      const status = { queued: 'Queueing', in_progress: 'Processing', completed: 'Success', failed: 'Fail' }[p];
      return send(res, 200, {
        task_id: t.id,
        status,
        ...(p === 'completed' ? { file_id: `f${t.id}`, video_width: 1366, video_height: 768 } : { file_id: '' }),
        base_resp: baseResp(),
      });
    }
    if (url.pathname === '/v1/files/retrieve') {
      const id = (url.searchParams.get('file_id') ?? '').slice(1);
      if (!s.tasks.has(id)) return send(res, 200, { base_resp: baseResp(1004, 'file not found') });
      return send(res, 200, {
        file: {
          file_id: `f${id}`,
          bytes: s.file.length,
          created_at: 1_760_000_090,
          filename: 'output.mp4',
          purpose: 'video_generation',
          download_url: `${s.url}/oss/${id}.mp4?Expires=1760030000&Signature=abc`,
        },
        base_resp: baseResp(),
      });
    }
    return send(res, 404, { base_resp: baseResp(2013, 'not found') });
  });
}
