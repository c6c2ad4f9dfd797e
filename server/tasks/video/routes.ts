/**
 * The OpenAI Videos API with an sk- key: `POST /v1/videos` (JSON or multipart), `GET /v1/videos`,
 * `GET|DELETE /v1/videos/{id}`, `GET /v1/videos/{id}/content`, and the family's aliases
 * `POST /v1/video/generations` and `GET /v1/video/generations/{task_id}`. Every read is of the
 * caller's own videos: another user's is answered 404 like one that does not exist.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../../context.js';
import { authenticateCaller, callerOf } from '../../relay/entry/identify-caller.js';
import { readJsonBodies } from '../../http/json-body.js';
import { RELAY_BODY_LIMIT } from '../../relay/entry/read-request.js';
import { answerIn } from '../../http/wire.js';
import { relayErrors } from '../../relay/errors.js';
import { taskErrors } from '../errors.js';
import { FINISHED } from '../status.js';
import { streamVideo } from './content.js';
import { refreshVideo } from './refresh.js';
import { removeAtVendor } from './remove.js';
import { deleteOwnVideo, findOwnVideo, listOwnVideos } from './repository.js';
import { submitVideo } from './submit.js';
import { toVideoObject } from './view.js';

/** A client polling its video asks the vendor at most this often per process. */
const REFRESH_EVERY_MS = 1000;
const LIST_MAX = 100;

export default async function videoRoutes(app: FastifyInstance): Promise<void> {
  const ctx: GatewayContext = app.ctx;
  const refreshed = new Map<number, number>();

  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: RELAY_BODY_LIMIT }, (_req, body, done) =>
    done(null, body),
  );
  answerIn(app, 'openai');
  readJsonBodies(app);
  const authenticate = authenticateCaller(ctx);

  const own = async (request: FastifyRequest, id: string) => {
    const row = await findOwnVideo(ctx.db, callerOf(request).user.id, id);
    if (!row) throw taskErrors.notExist();
    return row;
  };
  /** The caller's video, asked of its vendor first when unfinished (and not asked just now). */
  const current = async (request: FastifyRequest, id: string) => {
    const row = await own(request, id);
    if (FINISHED.includes(row.status) || (refreshed.get(row.id) ?? 0) > Date.now() - REFRESH_EVERY_MS) return row;
    if (refreshed.size > 10_000) refreshed.clear();
    refreshed.set(row.id, Date.now());
    await refreshVideo(ctx, row, Math.floor(Date.now() / 1000)).catch((err: unknown) =>
      ctx.log.warn({ err, task: row.task_id }, 'video refresh failed'),
    );
    return own(request, id);
  };

  for (const path of ['/v1/videos', '/v1/video/generations']) {
    app.post(path, { onRequest: authenticate, bodyLimit: RELAY_BODY_LIMIT }, (request, reply) =>
      submitVideo(ctx, request, reply),
    );
  }
  for (const path of ['/v1/videos/:id', '/v1/video/generations/:id']) {
    app.get(path, { onRequest: authenticate }, async (request) =>
      toVideoObject(await current(request, (request.params as { id: string }).id)),
    );
  }
  app.get('/v1/videos/:id/content', { onRequest: authenticate }, async (request, reply) =>
    streamVideo(ctx, await own(request, (request.params as { id: string }).id), reply),
  );
  app.get('/v1/videos', { onRequest: authenticate }, async (request) => {
    const q = request.query as { limit?: string; after?: string };
    const limit = q.limit === undefined ? 20 : Number(q.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > LIST_MAX) throw relayErrors.badBody(`limit: 1 to ${LIST_MAX}`);
    const rows = await listOwnVideos(
      ctx.db,
      callerOf(request).user.id,
      limit + 1,
      typeof q.after === 'string' ? q.after : undefined,
    );
    const data = rows.slice(0, limit).map(toVideoObject);
    return {
      object: 'list',
      data,
      first_id: (data[0]?.id as string | undefined) ?? null,
      last_id: (data.at(-1)?.id as string | undefined) ?? null,
      has_more: rows.length > limit,
    };
  });
  app.delete('/v1/videos/:id', { onRequest: authenticate }, async (request) => {
    const { id } = request.params as { id: string };
    const row = await own(request, id);
    if (!FINISHED.includes(row.status)) throw taskErrors.invalid('the video is still being made');
    if (!(await deleteOwnVideo(ctx.db, callerOf(request).user.id, id))) throw taskErrors.notExist();
    await removeAtVendor(ctx, row);
    return { id, object: 'video.deleted', deleted: true };
  });
}
