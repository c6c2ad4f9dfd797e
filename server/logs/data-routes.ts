/**
 * /api/data: usage statistics from the hourly totals (quota_data). Channel statistics for admins,
 * the dashboard's hourly rows for admins (all users or one, and per user for the ranking of users)
 * and for each user (their own).
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { currentUser, requireAdmin, requireUser } from '../auth/guard.js';
import { nowSeconds } from '../db/index.js';
import { ok } from '../http/envelope.js';
import { findUserByUsername } from '../users/repository.js';
import { channelUse, hourlyUsage, hourlyUsageByUser, type QuotaDataFilter } from './quota-data.js';
import { ChannelUseAnswer, ChannelUseQuery, QuotaDataAnswer, QuotaDataQuery, UserUsageAnswer } from './schemas.js';

/** The dashboard's range when the call names no start. */
const DEFAULT_SPAN = 7 * 86_400;

function range(query: QuotaDataQuery): { start: number; end: number } {
  const end = query.end_timestamp || nowSeconds();
  return { start: query.start_timestamp ?? end - DEFAULT_SPAN, end };
}

export default async function dataRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.ctx;

  for (const url of ['/api/data/channelUseData', '/api/data/channelUseData/']) {
    app.get(
      url,
      { onRequest: requireAdmin, schema: { querystring: ChannelUseQuery, response: { 200: ChannelUseAnswer } } },
      async (request) => {
        const q = request.query;
        return ok(
          await channelUse(db, {
            modelName: q.model_name?.trim(),
            start: q.start_timestamp,
            end: q.end_timestamp,
            channelId: q.channel_id,
            merge: q.merge,
          }),
        );
      },
    );
  }

  for (const url of ['/api/data/', '/api/data']) {
    app.get(
      url,
      { onRequest: requireAdmin, schema: { querystring: QuotaDataQuery, response: { 200: QuotaDataAnswer } } },
      async (request) => {
        const filter: QuotaDataFilter = range(request.query);
        const username = request.query.username?.trim();
        if (username) {
          const user = await findUserByUsername(db, username);
          if (user) filter.userId = user.id;
          else filter.username = username;
        }
        return ok(await hourlyUsage(db, filter));
      },
    );
  }

  // The same time window as /api/data/ (`username` plays no part: every user is in the answer).
  for (const url of ['/api/data/users', '/api/data/users/']) {
    app.get(
      url,
      { onRequest: requireAdmin, schema: { querystring: QuotaDataQuery, response: { 200: UserUsageAnswer } } },
      async (request) => ok(await hourlyUsageByUser(db, range(request.query))),
    );
  }

  for (const url of ['/api/data/self', '/api/data/self/']) {
    app.get(
      url,
      { onRequest: requireUser, schema: { querystring: QuotaDataQuery, response: { 200: QuotaDataAnswer } } },
      async (request) => ok(await hourlyUsage(db, { ...range(request.query), userId: currentUser(request).id })),
    );
  }
}
