/**
 * Redemption codes: the admin resource /api/redemption/* (list, search, read, batch create, edit,
 * enable / disable, delete) and redeeming one, POST /api/user/topup {key}, for any signed-in user.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayContext } from '../context.js';
import { fromBody, fromParams, textOf } from '../audit/targets.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { currentUser, requireAdmin, requireUser } from '../auth/guard.js';
import { nowSeconds } from '../db/index.js';
import type { Redemption } from '../db/types.js';
import { ok, pageParams } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import type { RefusalCode } from '../http/refusals.js';
import { criticalLimit } from '../ratelimit/hooks.js';
import { groupNames } from '../users/groups.js';
import { logText } from '../logs/messages.js';
import { publishUserChange } from '../users/user-cache.js';
import {
  countRedemptions,
  deleteInvalidRedemptions,
  deleteRedemption,
  findRedemption,
  findRedemptionIds,
  insertRedemptions,
  listRedemptions,
  redeem,
  setRedemptionStatus,
  toRedemptionView,
  updateUnusedRedemption,
} from './repository.js';
import {
  CountAnswer,
  CreatedKeysAnswer,
  CreateRedemptionBody,
  DEFAULT_REDEMPTION_QUOTA,
  EmptyAnswer,
  RedeemAnswer,
  RedeemBody,
  RedemptionAnswer,
  RedemptionIdParams,
  RedemptionPageAnswer,
  RedemptionPageQuery,
  RedemptionSearchQuery,
  REDEMPTION_UNUSED,
  UpdateRedemptionBody,
  UpdateRedemptionQuery,
  type RedemptionPage,
} from './schemas.js';
import { checkCount, checkExpiry, checkGroup, checkName, checkQuota, checkStatus } from './validation.js';

const REDEEM_REFUSALS = {
  invalid: 'redemption.invalid',
  used: 'redemption.used',
  expired: 'redemption.expired',
} as const satisfies Record<string, RefusalCode>;

/** The codes a batch made, by id: the answer lists their keys, which the audit never writes. */
const createdCodes = (data: unknown, ctx: GatewayContext) =>
  findRedemptionIds(ctx.db, Array.isArray(data) ? data.filter((key): key is string => typeof key === 'string') : []);

const updateAction = (request: FastifyRequest) => (textOf(request.query, 'status_only') === 'true' ? 'status' : 'update');

export default async function redemptionRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;
  const { db, options } = ctx;

  async function existing(id: number): Promise<Redemption> {
    const row = await findRedemption(db, id);
    if (!row) throw fail('redemption.not_found');
    return row;
  }

  async function page(keyword: string, query: RedemptionPageQuery): Promise<RedemptionPage> {
    const { page, pageSize, offset } = pageParams(query);
    const [total, rows] = await Promise.all([countRedemptions(db, keyword), listRedemptions(db, keyword, pageSize, offset)]);
    return { items: rows.map(toRedemptionView), total, page, page_size: pageSize };
  }

  for (const url of ['/api/redemption/', '/api/redemption']) {
    app.get(
      url,
      { onRequest: requireAdmin, schema: { querystring: RedemptionPageQuery, response: { 200: RedemptionPageAnswer } } },
      async (request) => ok(await page('', request.query)),
    );
  }

  app.get(
    '/api/redemption/search',
    { onRequest: requireAdmin, schema: { querystring: RedemptionSearchQuery, response: { 200: RedemptionPageAnswer } } },
    async (request) => ok(await page((request.query.keyword ?? '').trim(), request.query)),
  );

  app.get(
    '/api/redemption/:id',
    { onRequest: requireAdmin, schema: { params: RedemptionIdParams, response: { 200: RedemptionAnswer } } },
    async (request) => ok(toRedemptionView(await existing(request.params.id))),
  );

  for (const url of ['/api/redemption/', '/api/redemption']) {
    app.post(
      url,
      {
        onRequest: requireAdmin,
        schema: { body: CreateRedemptionBody, response: { 200: CreatedKeysAnswer } },
        config: { audit: { subject: 'redemption', action: 'create', created: createdCodes } },
      },
      async (request) => {
        const body = request.body;
        const name = checkName(body.name);
        const quota = checkQuota(body.quota ?? DEFAULT_REDEMPTION_QUOTA);
        const count = checkCount(body.count ?? 1);
        const group = checkGroup(body.group, groupNames(options));
        const now = nowSeconds();
        const expiredTime = checkExpiry(body.expired_time ?? 0, now);
        const keys = await insertRedemptions(db, {
          creatorId: currentUser(request).id,
          name,
          quota,
          group,
          expiredTime,
          count,
          now,
        });
        return ok(keys);
      },
    );

    app.put(
      url,
      {
        onRequest: requireAdmin,
        schema: { querystring: UpdateRedemptionQuery, body: UpdateRedemptionBody, response: { 200: RedemptionAnswer } },
        config: { audit: { subject: 'redemption', action: updateAction, target: fromBody() } },
      },
      async (request) => {
        const body = request.body;
        const code = await existing(body.id);
        if (request.query.status_only) {
          const status = checkStatus(body.status);
          if (!(await setRedemptionStatus(db, code.id, status))) throw fail('redemption.status_of_used');
        } else {
          if (code.status !== REDEMPTION_UNUSED) throw fail('redemption.edit_only_unused');
          const fields = {
            name: body.name === undefined ? code.name : checkName(body.name),
            quota: body.quota === undefined ? Number(code.quota) : checkQuota(body.quota),
            group: body.group === undefined ? code.group : checkGroup(body.group, groupNames(options)),
            // An unchanged expiry may lie in the past (the code expired); a new one may not.
            expired_time:
              body.expired_time === undefined || body.expired_time === Number(code.expired_time)
                ? Number(code.expired_time)
                : checkExpiry(body.expired_time, nowSeconds()),
          };
          // Redeemed or disabled between the read and the write.
          if (!(await updateUnusedRedemption(db, code.id, fields))) throw fail('redemption.edit_only_unused');
        }
        return ok(toRedemptionView(await existing(code.id)));
      },
    );
  }

  // Before `/:id` in meaning, and in Fastify's router a static path wins over a parameter.
  // Codes that can no longer be redeemed go by the hundred: the row says how many, not which.
  app.delete(
    '/api/redemption/invalid',
    {
      onRequest: requireAdmin,
      schema: { response: { 200: CountAnswer } },
      config: {
        audit: { subject: 'redemption', action: 'delete_invalid', detail: (_request, data) => ({ deleted: Number(data) || 0 }) },
      },
    },
    async () => ok(await deleteInvalidRedemptions(db, nowSeconds())),
  );

  for (const url of ['/api/redemption/:id/', '/api/redemption/:id']) {
    app.delete(
      url,
      {
        onRequest: requireAdmin,
        schema: { params: RedemptionIdParams, response: { 200: EmptyAnswer } },
        config: { audit: { subject: 'redemption', action: 'delete', target: fromParams } },
      },
      async (request) => {
        if (!(await deleteRedemption(db, request.params.id, nowSeconds()))) throw fail('redemption.not_found');
        return ok();
      },
    );
  }

  app.post(
    '/api/user/topup',
    { onRequest: [requireUser, criticalLimit], schema: { body: RedeemBody, response: { 200: RedeemAnswer } } },
    async (request) => {
      const key = (request.body.key ?? '').trim();
      if (key === '') throw fail('redemption.key_required');
      const user = currentUser(request);
      const outcome = await redeem(db, ctx.dbKind, key, user, nowSeconds(), (id, quota) =>
        logText(options, 'redemption', { quota, id }),
      );
      if (!outcome.ok) {
        if (outcome.reason === 'group') throw fail('redemption.group_only', { group: outcome.group });
        throw fail(REDEEM_REFUSALS[outcome.reason]);
      }
      publishUserChange(ctx.bus, user.id);
      return ok(outcome.quota, '兑换成功');
    },
  );
}
