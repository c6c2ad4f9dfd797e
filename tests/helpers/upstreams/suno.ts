/**
 * A local server speaking suno-api's wire format (`{code, message, data}`), built from the recorded
 * answers in tests/fixtures/providers/suno/. Tasks live in memory and move a step on every
 * `POST /suno/fetch` that names them: SUBMITTED → IN_PROGRESS → SUCCESS or FAILURE.
 *
 * - key: `Authorization: Bearer <key>`, else 401;
 * - prompt containing `will-fail` → the task ends in FAILURE; `never-finish` → it stays
 *   IN_PROGRESS; `rejected` → submit refused with 400; `upstream-500` → HTTP 500.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RecordedRequest } from './openai.js';
import { listenLocally, parseBody, readBody, sendJson as send } from './stand-in-server.js';

const dir = fileURLToPath(new URL('../../fixtures/providers/suno/', import.meta.url));
const fixture = (name: string) => JSON.parse(readFileSync(dir + name, 'utf8')) as Record<string, any>;

export interface SunoStandInTask {
  id: string;
  action: 'MUSIC' | 'LYRICS';
  status: string;
  outcome: 'success' | 'failure' | 'never';
  submitTime: number;
}

export interface SunoStandIn {
  url: string;
  key: string;
  requests: RecordedRequest[];
  tasks: Map<string, SunoStandInTask>;
  listDelayMs: number;
  finish(id: string, outcome: 'success' | 'failure'): void;
  close(): Promise<void>;
}

export async function startSunoStandIn(key = 'suno-upstream-key'): Promise<SunoStandIn> {
  const requests: RecordedRequest[] = [];
  const tasks = new Map<string, SunoStandInTask>();

  const view = (t: SunoStandInTask): Record<string, unknown> => {
    let base: Record<string, any>;
    if (t.status === 'FAILURE') base = fixture('fetch-failure.json');
    else if (t.status === 'SUCCESS')
      base = fixture(t.action === 'LYRICS' ? 'fetch-lyrics-success.json' : 'fetch-music-success.json');
    else if (t.status === 'IN_PROGRESS') base = fixture('fetch-music-in-progress.json');
    else base = { ...fixture('fetch-music-in-progress.json'), status: t.status, start_time: 0, progress: '0%', data: [] };
    return { ...base, task_id: t.id, action: t.action, submit_time: t.submitTime };
  };
  const advance = (t: SunoStandInTask) => {
    if (t.status === 'SUBMITTED') t.status = 'IN_PROGRESS';
    else if (t.status === 'IN_PROGRESS' && t.outcome !== 'never') t.status = t.outcome === 'success' ? 'SUCCESS' : 'FAILURE';
  };

  const standIn: SunoStandIn = {
    url: '',
    key,
    requests,
    tasks,
    listDelayMs: 0,
    finish(id, outcome) {
      const t = tasks.get(id)!;
      t.outcome = outcome;
      t.status = outcome === 'success' ? 'SUCCESS' : 'FAILURE';
    },
    close: async () => undefined,
  };

  const server = createServer((req, res) => {
    void (async () => {
      const body = parseBody(await readBody(req));
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const path = (req.url ?? '').split('?')[0] ?? '';
      if (req.headers.authorization !== `Bearer ${key}`) {
        return send(res, 401, { code: 'unauthorized', message: 'invalid api key', data: null });
      }
      const submit = /^\/suno\/submit\/(music|lyrics)$/.exec(path);
      if (submit && req.method === 'POST') {
        const prompt = typeof body?.prompt === 'string' ? body.prompt : '';
        if (prompt.includes('upstream-500')) return send(res, 500, { code: 'error', message: 'internal error', data: null });
        if (prompt.includes('rejected')) return send(res, 400, fixture('error-invalid.json'));
        const action = submit[1] === 'lyrics' ? 'LYRICS' : 'MUSIC';
        const answer = fixture(action === 'LYRICS' ? 'submit-lyrics.json' : 'submit-music.json');
        const id = randomUUID();
        tasks.set(id, {
          id,
          action,
          status: 'SUBMITTED',
          outcome: prompt.includes('will-fail') ? 'failure' : prompt.includes('never-finish') ? 'never' : 'success',
          submitTime: Math.floor(Date.now() / 1000),
        });
        return send(res, 200, { ...answer, data: id });
      }
      if (path === '/suno/fetch' && req.method === 'POST') {
        if (standIn.listDelayMs > 0) await new Promise((r) => setTimeout(r, standIn.listDelayMs));
        const ids: string[] = Array.isArray(body?.ids) ? body.ids : [];
        const found = ids.map((id) => tasks.get(id)).filter((t): t is SunoStandInTask => t !== undefined);
        for (const t of found) advance(t);
        return send(res, 200, { code: 'success', message: '', data: found.map(view) });
      }
      const one = /^\/suno\/fetch\/([^/]+)$/.exec(path);
      if (one && req.method === 'GET') {
        const t = tasks.get(one[1]!);
        return t
          ? send(res, 200, { code: 'success', message: '', data: view(t) })
          : send(res, 404, { code: 'task_not_exist', message: 'task not exist', data: null });
      }
      send(res, 404, { code: 'not_found', message: 'not found', data: null });
    })();
  });
  const listening = await listenLocally(server);
  standIn.url = listening.url;
  standIn.close = listening.close;
  return standIn;
}
