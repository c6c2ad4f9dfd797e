/**
 * /api/log: usage logs. Admins read every user's rows (/api/log/, its "new" twin), everyone their
 * own (/api/log/self/); only admins see the channel of a row and `other.admin_info`. Root cleans
 * up old rows. The hourly statistics under /api/data live in data-routes.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { currentUser, requireAdmin, requireRoot, requireUser } from '../auth/guard.js';
import { ROLE_ADMIN } from '../auth/roles.js';
import { nowSeconds } from '../db/index.js';
import type { User } from '../db/types.js';
import { ok, pageParams } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import { storedKey } from '../tokens/keys.js';
import { findTokenOwnerByKey } from '../tokens/repository.js';
import dataRoutes from './data-routes.js';
import { findLogExtend, findLogOwner, listLogs, logStat, type LogFilter } from './list-repository.js';
import { deleteLogsEverywhere } from './retention.js';
import {
  LogCleanupAnswer,
  LogCleanupQuery,
  LogExtendAnswer,
  LogIdParams,
  LogListQuery,
  LogPageAnswer,
  LogStatAnswer,
  type LogListPage,
} from './schemas.js';
import { toLogItem } from './view.js';
import { textOf } from '../audit/targets.js';
import type { AuditSpec } from '../audit/types.js';

const isAdmin = (user: User): boolean => user.role >= ROLE_ADMIN;

/** A cleanup deletes rows by the million: the audit keeps its cut-off and how many went. */
const cleanupAudit: AuditSpec = {
  subject: 'log',
  action: 'cleanup',
  detail: (request, deleted) => ({
    target_timestamp: Number(textOf(request.query, 'target_timestamp')),
    deleted: Number(deleted),
  }),
};

export default async function logRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;
  // Log rows live in ctx.logDb (LOG_SQL_DSN's database, or the main one); tokens and totals in ctx.db.
  const { db, logDb, logDbKind } = ctx;
  const statSources = { rows: logDb, rowsKind: logDbKind, totals: db };
  const channelName = (id: number): string | undefined => ctx.channels.get(id)?.name;

  /**
   * The filter of a list or stat call; `null` when it can match nothing (a key of no token, or of
   * someone else's token on /self). `self`: only the caller's rows, username and channel ignored.
   */
  async function filterOf(query: LogListQuery, user: User, self: boolean): Promise<LogFilter | null> {
    const filter: LogFilter = {
      type: query.type,
      tokenName: query.token_name?.trim(),
      modelName: query.model_name?.trim(),
      start: query.start_timestamp,
      end: query.end_timestamp,
      group: query.group?.trim(),
      ...(self ? { userId: user.id } : { username: query.username?.trim(), channelId: query.channel }),
    };
    const key = query.key ? storedKey(query.key) : '';
    if (key) {
      const token = await findTokenOwnerByKey(db, key);
      if (!token || (self && token.user_id !== user.id)) return null;
      // The owner's user_id index finds the token's rows; token_id has none of its own.
      filter.userId = token.user_id;
      filter.tokenId = token.id;
    }
    return filter;
  }

  async function page(query: LogListQuery, user: User, self: boolean): Promise<LogListPage> {
    const { page: p, pageSize, offset } = pageParams(query);
    const filter = await filterOf(query, user, self);
    if (!filter) return { items: [], total: 0, page: p, page_size: pageSize, total_capped: false };
    const slice = await listLogs(logDb, logDbKind, filter, pageSize, offset);
    const admin = isAdmin(user);
    return {
      items: slice.rows.map((row) => toLogItem(row, admin, channelName)),
      total: slice.total,
      page: p,
      page_size: pageSize,
      total_capped: slice.capped,
    };
  }

  const lists = [
    { urls: ['/api/log/', '/api/log', '/api/log/new/', '/api/log/new'], guard: requireAdmin, self: false },
    { urls: ['/api/log/self/', '/api/log/self'], guard: requireUser, self: true },
  ];
  for (const { urls, guard, self } of lists) {
    for (const url of urls) {
      app.get(
        url,
        { onRequest: guard, schema: { querystring: LogListQuery, response: { 200: LogPageAnswer } } },
        async (request) => ok(await page(request.query, currentUser(request), self)),
      );
    }
  }

  const stats = [
    { urls: ['/api/log/stat', '/api/log/stat/', '/api/log/new/stat', '/api/log/new/stat/'], guard: requireAdmin, self: false },
    { urls: ['/api/log/self/stat', '/api/log/self/stat/'], guard: requireUser, self: true },
  ];
  for (const { urls, guard, self } of stats) {
    for (const url of urls) {
      app.get(
        url,
        { onRequest: guard, schema: { querystring: LogListQuery, response: { 200: LogStatAnswer } } },
        async (request) => {
          const filter = await filterOf(request.query, currentUser(request), self);
          return ok(filter ? await logStat(statSources, filter, nowSeconds()) : { quota: 0, rpm: 0, tpm: 0 });
        },
      );
    }
  }

  app.get(
    '/api/log/extend/:id',
    { onRequest: requireUser, schema: { params: LogIdParams, response: { 200: LogExtendAnswer } } },
    async (request) => {
      const user = currentUser(request);
      const owner = await findLogOwner(logDb, request.params.id);
      // Someone else's row answers exactly like a missing one.
      if (owner === undefined || (!isAdmin(user) && owner !== user.id)) throw fail('log.not_found');
      return ok(await findLogExtend(logDb, request.params.id));
    },
  );

  for (const url of ['/api/log/', '/api/log']) {
    app.delete(
      url,
      {
        onRequest: requireRoot,
        schema: { querystring: LogCleanupQuery, response: { 200: LogCleanupAnswer } },
        config: { audit: cleanupAudit },
      },
      async (request) => {
        const before = request.query.target_timestamp;
        if (!before) throw fail('log.cleanup_needs_timestamp');
        return ok(await deleteLogsEverywhere(ctx, before));
      },
    );
  }

  await app.register(dataRoutes);
}
