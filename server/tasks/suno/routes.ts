/**
 * The Suno relay: `POST /suno/submit/music|lyrics`, `POST /suno/fetch` (`{ids}`) and
 * `GET /suno/fetch/{id}` with an sk- key, answered in suno-api's `{code, message, data}` shape
 * from the stored tasks (the poller keeps them current).
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import type { GatewayContext } from '../../context.js';
import { resolveCaller } from '../../relay/caller.js';
import { RELAY_BODY_LIMIT } from '../../relay/request.js';
import { isRecord, str } from '../channel.js';
import { describeError, TaskError } from '../errors.js';
import { SUNO_PLATFORM, findOwnSunoTask, submitSuno } from './submit.js';
import { toSunoTask } from './view.js';

const FETCH_MAX_IDS = 500;

export default async function sunoRoutes(app: FastifyInstance): Promise<void> {
  const ctx: GatewayContext = app.ctx;

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = describeError(error);
    if (known) return reply.status(known.status).send({ code: known.reason, message: known.message, data: null });
    if (error.validation || (error.statusCode && error.statusCode < 500)) {
      const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 400;
      return reply.status(status).send({ code: 'invalid_request', message: error.message, data: null });
    }
    request.log.error({ err: error }, 'suno relay error');
    return reply.status(500).send({ code: 'internal_error', message: '服务器内部错误，请联系管理员', data: null });
  });

  for (const action of ['music', 'lyrics'] as const) {
    app.post(`/suno/submit/${action}`, { bodyLimit: RELAY_BODY_LIMIT }, (request, reply) =>
      submitSuno(ctx, request, reply, action),
    );
  }

  app.post('/suno/fetch', async (request) => {
    const caller = await resolveCaller(ctx, request);
    const body = request.body;
    const ids = isRecord(body) && Array.isArray(body.ids) ? [...new Set(body.ids.map(str).filter((s) => s !== ''))] : [];
    if (ids.length > FETCH_MAX_IDS) throw new TaskError(400, `ids: at most ${FETCH_MAX_IDS}`, 'invalid_request');
    if (ids.length === 0) return { code: 'success', message: '', data: [] };
    const rows = await ctx.db
      .selectFrom('tasks')
      .selectAll()
      .where('platform', '=', SUNO_PLATFORM)
      .where('user_id', '=', caller.user.id)
      .where('task_id', 'in', ids)
      .orderBy('id', 'desc')
      .execute();
    const newest = new Map<string, (typeof rows)[number]>();
    for (const row of rows) if (!newest.has(row.task_id)) newest.set(row.task_id, row);
    const data = ids.flatMap((id) => {
      const row = newest.get(id);
      return row ? [toSunoTask(row)] : [];
    });
    return { code: 'success', message: '', data };
  });

  app.get('/suno/fetch/:id', async (request) => {
    const caller = await resolveCaller(ctx, request);
    const { id } = request.params as { id: string };
    const row = await findOwnSunoTask(ctx, caller.user.id, id);
    if (!row) throw new TaskError(404, 'task_not_exist', 'task_not_exist');
    return { code: 'success', message: '', data: toSunoTask(row) };
  });
}
