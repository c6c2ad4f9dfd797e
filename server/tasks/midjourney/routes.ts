/**
 * The Midjourney-proxy relay: `POST /mj/submit/<kind>` and `/mj/insight-face/swap` (also under the
 * speed-mode prefixes `/mj-fast`, `/fast` …), `GET /mj/task/{id}/fetch`, `POST /mj/task/list-by-condition`
 * and `GET /mj/task/{id}/image-seed` with an sk- key (`mj-api-secret` or Bearer), answered in
 * midjourney-proxy's shapes from the stored tasks; and `GET /mj/image/{id}`, which serves a task's
 * image through the SSRF-safe fetcher (no key: image tags cannot send one).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../../context.js';
import { authenticateCaller, callerOf } from '../../relay/entry/identify-caller.js';
import { readJsonBodies } from '../../http/json-body.js';
import { RELAY_BODY_LIMIT } from '../../relay/entry/read-request.js';
import { safeFetch, SafeFetchError } from '../../http/safe-fetch.js';
import { baseUrl, callPlatform, platformHeaders, isRecord, str } from '../channel.js';
import { answerIn } from '../../http/wire.js';
import { relayErrors } from '../../relay/errors.js';
import { taskErrors } from '../errors.js';
import { MODE_PREFIXES, SUBMIT_KINDS, upstreamPath } from './actions.js';
import { findImageUrl, findOwnTask, findOwnTasks } from './repository.js';
import { submitMidjourney } from './submit.js';
import { toProxyTask } from './view.js';

const IMAGE_MAX_BYTES = 32 * 1024 * 1024;
const LIST_MAX_IDS = 500;

export default async function midjourneyRoutes(app: FastifyInstance): Promise<void> {
  const ctx: GatewayContext = app.ctx;

  answerIn(app, 'midjourney');
  readJsonBodies(app);
  const authenticate = authenticateCaller(ctx);

  const ownTask = async (request: FastifyRequest) => {
    const caller = callerOf(request);
    const { id } = request.params as { id: string };
    const row = await findOwnTask(ctx.db, caller.user.id, id);
    if (!row) throw taskErrors.notFound();
    return row;
  };

  for (const { prefix, mode } of MODE_PREFIXES) {
    for (const kind of SUBMIT_KINDS) {
      app.post(`${prefix}${upstreamPath(kind)}`, { onRequest: authenticate, bodyLimit: RELAY_BODY_LIMIT }, (request, reply) =>
        submitMidjourney(ctx, request, reply, kind, mode),
      );
    }

    app.get(`${prefix}/mj/task/:id/fetch`, { onRequest: authenticate }, async (request) =>
      toProxyTask(ctx, request, await ownTask(request)),
    );

    app.post(`${prefix}/mj/task/list-by-condition`, { onRequest: authenticate }, async (request) => {
      const caller = callerOf(request);
      const body = request.body;
      const ids = isRecord(body) && Array.isArray(body.ids) ? [...new Set(body.ids.map(str).filter((s) => s !== ''))] : [];
      if (ids.length > LIST_MAX_IDS) throw taskErrors.invalid(`ids: at most ${LIST_MAX_IDS}`);
      if (ids.length === 0) return [];
      const rows = await findOwnTasks(ctx.db, caller.user.id, ids);
      // The newest row of each id, in the order asked.
      const newest = new Map<string, (typeof rows)[number]>();
      for (const row of rows) if (!newest.has(row.mj_id)) newest.set(row.mj_id, row);
      return ids.flatMap((id) => {
        const row = newest.get(id);
        return row ? [toProxyTask(ctx, request, row)] : [];
      });
    });

    app.get(`${prefix}/mj/task/:id/image-seed`, { onRequest: authenticate }, async (request, reply) => {
      const row = await ownTask(request);
      const channel = ctx.channels.get(row.channel_id);
      if (!channel) throw taskErrors.channelGone();
      let answer;
      try {
        answer = await callPlatform(
          `${baseUrl(channel)}/mj/task/${encodeURIComponent(row.mj_id)}/image-seed`,
          platformHeaders(channel),
          undefined,
          60_000,
        );
      } catch (err) {
        throw relayErrors.connection((err as Error).message);
      }
      return reply.status(answer.status).type('application/json').send(answer.text);
    });
  }

  app.get('/mj/image/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    const imageUrl = await findImageUrl(ctx.db, id);
    if (!imageUrl) throw taskErrors.notFound();
    let res;
    try {
      res = await safeFetch(imageUrl, {
        maxBytes: IMAGE_MAX_BYTES,
        timeoutMs: 60_000,
      });
    } catch (err) {
      throw taskErrors.imageFetch((err as Error).message, err instanceof SafeFetchError ? err : undefined);
    }
    if (res.status !== 200) throw taskErrors.imageFetch(`上游返回 ${res.status}`);
    const type = String(res.headers['content-type'] ?? '');
    return reply
      .header('content-type', /^(image|video)\/[\w.+-]+$/i.test(type.split(';')[0]!.trim()) ? type : 'application/octet-stream')
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'public, max-age=86400')
      .send(res.body);
  });
}
