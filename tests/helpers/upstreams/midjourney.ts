/**
 * A local server speaking midjourney-proxy's wire format, built from the recorded answers in
 * tests/fixtures/providers/midjourney/. It keeps its tasks in memory and moves each one a step on
 * every `list-by-condition` that names it: SUBMITTED → IN_PROGRESS → SUCCESS or FAILURE.
 *
 * - key: header `mj-api-secret` must equal `secret`, else 403 with a plain-text body;
 * - prompt containing `will-fail` → the task ends in FAILURE; `banned` → submit code 24;
 *   `queued` → code 22; `upstream-500` → HTTP 500;
 * - `/mj/submit/action` with a CustomZoom or Inpaint customId → code 21, task waiting in MODAL
 *   until `/mj/submit/modal` (which goes on under the same id);
 * - finished images are served at `/attachments/<id>.png`.
 */
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RecordedRequest } from './openai.js';
import { listenLocally, parseBody, readBody, sendJson as send } from './stand-in-server.js';

const dir = fileURLToPath(new URL('../../fixtures/providers/midjourney/', import.meta.url));
const fixture = (name: string) => JSON.parse(readFileSync(dir + name, 'utf8')) as Record<string, any>;
export const MJ_IMAGE = readFileSync(dir + 'image.png');

export interface StandInTask {
  id: string;
  action: string;
  prompt: string;
  status: string;
  outcome: 'success' | 'failure';
  state: string;
  customId: string;
}

export interface MidjourneyStandIn {
  url: string;
  secret: string;
  requests: RecordedRequest[];
  tasks: Map<string, StandInTask>;
  /** Milliseconds every list-by-condition answer waits (holds concurrent pollers in flight together). */
  listDelayMs: number;
  /** The full task as the upstream would answer it now. */
  view(id: string): Record<string, unknown>;
  /** Moves a task straight to its end. */
  finish(id: string, outcome?: 'success' | 'failure'): void;
  close(): Promise<void>;
}

const SUBMIT = /^(?:\/mj-(?:fast|turbo|relax))?\/mj\/(?:submit\/([a-z-]+)|insight-face\/swap)$/;

export async function startMidjourneyStandIn(secret = 'mj-upstream-secret'): Promise<MidjourneyStandIn> {
  const requests: RecordedRequest[] = [];
  const tasks = new Map<string, StandInTask>();
  let next = 1712205491372;
  let url = '';

  const view = (id: string): Record<string, unknown> => {
    const t = tasks.get(id)!;
    const base =
      t.status === 'SUCCESS'
        ? fixture('task-success.json')
        : t.status === 'FAILURE'
          ? fixture('task-failure.json')
          : t.status === 'IN_PROGRESS'
            ? fixture('task-in-progress.json')
            : fixture('task-submitted.json');
    const out: Record<string, unknown> = {
      ...base,
      id: t.id,
      action: t.action,
      prompt: t.prompt,
      promptEn: t.prompt,
      state: t.state,
    };
    out.description = `/${t.action.toLowerCase()} ${t.prompt}`;
    if (t.status === 'SUCCESS') out.imageUrl = `${url}/attachments/${t.id}.png`;
    if (t.status === 'MODAL') Object.assign(out, { status: 'MODAL', progress: '0%' });
    return out;
  };
  const advance = (t: StandInTask) => {
    if (t.status === 'SUBMITTED') t.status = 'IN_PROGRESS';
    else if (t.status === 'IN_PROGRESS') t.status = t.outcome === 'success' ? 'SUCCESS' : 'FAILURE';
  };
  const newTask = (action: string, prompt: string, status: string, body: Record<string, any>): StandInTask => {
    const task: StandInTask = {
      id: String(next++),
      action,
      prompt,
      status,
      outcome: prompt.includes('will-fail') ? 'failure' : 'success',
      state: typeof body.state === 'string' ? body.state : '',
      customId: typeof body.customId === 'string' ? body.customId : '',
    };
    tasks.set(task.id, task);
    return task;
  };
  const accepted = (task: StandInTask, name = 'submit-success.json') => ({ ...fixture(name), result: task.id });

  const submit = (kind: string, body: Record<string, any>): [number, unknown] => {
    const prompt = typeof body.prompt === 'string' ? body.prompt : '';
    if (prompt.includes('upstream-500')) return [500, { error: 'internal error' }];
    if (prompt.includes('banned')) return [200, fixture('submit-banned.json')];
    if (kind === 'upload-discord-images') {
      const answer = fixture('upload-images.json');
      return [
        200,
        { ...answer, result: (body.base64Array ?? []).map((_: unknown, i: number) => `${url}/attachments/upload-${i + 1}.png`) },
      ];
    }
    if (kind === 'simple-change') {
      const m = /^(\S+)\s+([UVR])(\d?)$/.exec(String(body.content ?? '').trim());
      if (!m) return [200, { code: 4, description: 'content 参数错误', result: null, properties: {} }];
      const action = { U: 'UPSCALE', V: 'VARIATION', R: 'REROLL' }[m[2] as 'U' | 'V' | 'R'];
      return submit('change', { ...body, taskId: m[1], action, index: Number(m[3] || 0) });
    }
    const origin = typeof body.taskId === 'string' ? tasks.get(body.taskId) : undefined;
    if (['change', 'action', 'modal'].includes(kind) || (kind === 'video' && body.taskId)) {
      if (!origin) return [404, fixture('submit-not-found.json')];
    }
    if (kind === 'modal') {
      origin!.status = 'SUBMITTED';
      if (prompt) origin!.prompt = prompt;
      return [200, accepted(origin!)];
    }
    if (kind === 'action' || kind === 'change') {
      if (origin!.status !== 'SUCCESS') return [200, { code: 4, description: '关联任务状态错误', result: null, properties: {} }];
      const customId = String(body.customId ?? '');
      if (/^MJ::(CustomZoom|Inpaint)::/.test(customId)) {
        return [
          200,
          accepted(
            newTask(customId.includes('Inpaint') ? 'INPAINT' : 'ZOOM', origin!.prompt, 'MODAL', body),
            'submit-window.json',
          ),
        ];
      }
      return [200, accepted(newTask(kind === 'change' ? String(body.action) : 'UPSCALE', origin!.prompt, 'SUBMITTED', body))];
    }
    const action = kind === 'swap' ? 'SWAP_FACE' : kind.toUpperCase();
    const task = newTask(action, prompt, 'SUBMITTED', body);
    return [200, accepted(task, prompt.includes('queued') ? 'submit-queued.json' : 'submit-success.json')];
  };

  const standIn: MidjourneyStandIn = {
    url: '',
    secret,
    requests,
    tasks,
    listDelayMs: 0,
    view,
    finish(id, outcome) {
      const t = tasks.get(id)!;
      if (outcome) t.outcome = outcome;
      t.status = t.outcome === 'success' ? 'SUCCESS' : 'FAILURE';
    },
    close: async () => undefined,
  };

  const server = createServer((req, res) => {
    void (async () => {
      const body = parseBody(await readBody(req));
      const recorded: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      requests.push(recorded);
      const path = (req.url ?? '').split('?')[0] ?? '';
      const image = /^\/attachments\/[\w-]+\.png$/.exec(path);
      if (image && req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': MJ_IMAGE.length });
        return void res.end(MJ_IMAGE);
      }
      if (req.headers['mj-api-secret'] !== secret) {
        res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
        return void res.end('未登录');
      }
      const submitMatch = SUBMIT.exec(path);
      if (submitMatch && req.method === 'POST') {
        const [status, answer] = submit(submitMatch[1] ?? 'swap', body ?? {});
        return send(res, status, answer);
      }
      if (path === '/mj/task/list-by-condition' && req.method === 'POST') {
        if (standIn.listDelayMs > 0) await new Promise((r) => setTimeout(r, standIn.listDelayMs));
        const ids: string[] = Array.isArray(body?.ids) ? body.ids : [];
        const found = ids.filter((id) => tasks.has(id));
        for (const id of found) advance(tasks.get(id)!);
        return send(res, 200, found.map(view));
      }
      const fetchMatch = /^\/mj\/task\/([^/]+)\/fetch$/.exec(path);
      if (fetchMatch && req.method === 'GET') {
        return tasks.has(fetchMatch[1]!) ? send(res, 200, view(fetchMatch[1]!)) : send(res, 404, null);
      }
      const seedMatch = /^\/mj\/task\/([^/]+)\/image-seed$/.exec(path);
      if (seedMatch && req.method === 'GET') return send(res, 200, fixture('image-seed.json'));
      send(res, 404, { code: 3, description: 'not found', result: null });
    })();
  });
  const listening = await listenLocally(server);
  url = listening.url;
  standIn.url = url;
  standIn.close = listening.close;
  return standIn;
}
