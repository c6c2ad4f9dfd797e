/**
 * Reading and setting spend caps: a token's by its owner (GET|PUT /api/spend_cap/token/:id), a
 * user's by admins (GET|PUT /api/spend_cap/user/:id, audited). No cap reads as `null`; a limit of
 * 0 removes the cap.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { fromParams } from '../audit/targets.js';
import { currentUser, requireAdmin, requireUser } from '../auth/guard.js';
import { nowSeconds } from '../db/index.js';
import type { SpendCap } from '../db/types.js';
import { ok } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import { Envelope, Int53, Nullable } from '../http/schemas.js';
import { findOwnToken } from '../tokens/repository.js';
import { findUserById } from '../users/repository.js';
import { publishCapChange } from './caps.js';
import { CAP_PERIODS, findCap, setCap, type CapPeriod, type CapSubject } from './caps-repository.js';

const CapView = Type.Object({ period: Type.String(), limit: Type.Number() });
const CapAnswer = Envelope(Nullable(CapView));
const CapBody = Type.Object({
  period: Type.Unsafe<CapPeriod>(Type.String({ enum: [...CAP_PERIODS] })),
  limit: Int53({ minimum: 0 }),
});
const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) });

const view = (cap: SpendCap | undefined) => (cap ? { period: cap.period, limit: Number(cap.cap_limit) } : null);

export default async function spendCapRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { db, bus } = app.ctx;

  async function save(subject: CapSubject, id: number, body: { period: CapPeriod; limit: number }) {
    await setCap(db, subject, id, body.period, body.limit, nowSeconds());
    publishCapChange(bus);
    return ok(view(await findCap(db, subject, id)));
  }

  const ownToken = async (userId: number, id: number) => {
    if (!(await findOwnToken(db, userId, id))) throw fail('token.not_found');
  };

  app.get(
    '/api/spend_cap/token/:id',
    { onRequest: requireUser, schema: { params: IdParams, response: { 200: CapAnswer } } },
    async (request) => {
      await ownToken(currentUser(request).id, request.params.id);
      return ok(view(await findCap(db, 'token', request.params.id)));
    },
  );
  app.put(
    '/api/spend_cap/token/:id',
    { onRequest: requireUser, schema: { params: IdParams, body: CapBody, response: { 200: CapAnswer } } },
    async (request) => {
      await ownToken(currentUser(request).id, request.params.id);
      return save('token', request.params.id, request.body);
    },
  );

  app.get(
    '/api/spend_cap/user/:id',
    { onRequest: requireAdmin, schema: { params: IdParams, response: { 200: CapAnswer } } },
    async (request) => ok(view(await findCap(db, 'user', request.params.id))),
  );
  app.put(
    '/api/spend_cap/user/:id',
    {
      onRequest: requireAdmin,
      schema: { params: IdParams, body: CapBody, response: { 200: CapAnswer } },
      config: {
        audit: {
          subject: 'user',
          action: 'spend_cap',
          target: fromParams,
          detail: (request) => {
            const body = request.body as { period: string; limit: number };
            return { period: body.period, limit: body.limit };
          },
        },
      },
    },
    async (request) => {
      if (!(await findUserById(db, request.params.id))) throw fail('subscription.user_not_found');
      return save('user', request.params.id, request.body);
    },
  );
}
