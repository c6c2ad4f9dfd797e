/**
 * The Suno relay: `POST /suno/submit/music|lyrics`, `POST /suno/fetch` (`{ids}`) and
 * `GET /suno/fetch/{id}` with an sk- key, answered in suno-api's `{code, message, data}` shape
 * from the stored tasks (the poller keeps them current).
 */
import type { FastifyInstance } from 'fastify';
import type { GatewayContext } from '../../context.js';
import { authenticateCaller, callerOf } from '../../relay/entry/identify-caller.js';
import { readJsonBodies } from '../../http/json-body.js';
import { RELAY_BODY_LIMIT } from '../../relay/entry/read-request.js';
import { isRecord, str } from '../channel.js';
import { answerIn } from '../../http/wire.js';
import { taskErrors } from '../errors.js';
import { findOwnSunoTask, findOwnSunoTasks } from './repository.js';
import { submitSuno } from './submit.js';
import { toSunoTask } from './view.js';

const FETCH_MAX_IDS = 500;

export default async function sunoRoutes(app: FastifyInstance): Promise<void> {
  const ctx: GatewayContext = app.ctx;

  answerIn(app, 'suno');
  readJsonBodies(app);
  const authenticate = authenticateCaller(ctx);

  for (const action of ['music', 'lyrics'] as const) {
    app.post(`/suno/submit/${action}`, { onRequest: authenticate, bodyLimit: RELAY_BODY_LIMIT }, (request, reply) =>
      submitSuno(ctx, request, reply, action),
    );
  }

  app.post('/suno/fetch', { onRequest: authenticate }, async (request) => {
    const caller = callerOf(request);
    const body = request.body;
    const ids = isRecord(body) && Array.isArray(body.ids) ? [...new Set(body.ids.map(str).filter((s) => s !== ''))] : [];
    if (ids.length > FETCH_MAX_IDS) throw taskErrors.invalid(`ids: at most ${FETCH_MAX_IDS}`);
    if (ids.length === 0) return { code: 'success', message: '', data: [] };
    const rows = await findOwnSunoTasks(ctx.db, caller.user.id, ids);
    const newest = new Map<string, (typeof rows)[number]>();
    for (const row of rows) if (!newest.has(row.task_id)) newest.set(row.task_id, row);
    const data = ids.flatMap((id) => {
      const row = newest.get(id);
      return row ? [toSunoTask(row)] : [];
    });
    return { code: 'success', message: '', data };
  });

  app.get('/suno/fetch/:id', { onRequest: authenticate }, async (request) => {
    const caller = callerOf(request);
    const { id } = request.params as { id: string };
    const row = await findOwnSunoTask(ctx.db, caller.user.id, id);
    if (!row) throw taskErrors.notExist();
    return { code: 'success', message: '', data: toSunoTask(row) };
  });
}
