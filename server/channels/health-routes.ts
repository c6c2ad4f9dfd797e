/**
 * Channel health for admins: test one channel or all, read balances, list an upstream's models.
 * The answers keep the wire shapes operators' tools know (`time` and `balance` beside the
 * envelope's fields) and also carry them in `data`, where the console's client looks.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { requireAdmin } from '../auth/guard.js';
import { ok } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import { privateUpstreamsAllowed } from '../http/safe-fetch.js';
import { Envelope, EnvelopeFields } from '../http/schemas.js';
import { updateAllBalances, updateBalance } from './balance.js';
import { fetchChannelModels, fetchModelsAt, firstKey } from './fetch-models.js';
import { findChannel } from './repository.js';
import { ChannelIdParams, StringList } from './schemas.js';
import { startTestAll, testChannel, TEST_MSG } from './testing.js';
import { keyRequired } from './types.js';

// ---- Shapes (the console imports the Static types) ----

export const ChannelTestQuery = Type.Object({ model: Type.Optional(Type.String({ maxLength: 255 })) });
export type ChannelTestQuery = Static<typeof ChannelTestQuery>;

export const ChannelTestTime = Type.Object({
  /** Seconds the upstream took to answer in full (0 when nothing was sent). */
  time: Type.Number(),
});
export type ChannelTestTime = Static<typeof ChannelTestTime>;

/** GET /api/channel/test/{id}: `{success, message, time, data: {time}}`; on failure the upstream's message. */
export const ChannelTestAnswer = Type.Object({
  ...EnvelopeFields,
  time: Type.Optional(Type.Number()),
  data: Type.Optional(ChannelTestTime),
});
export type ChannelTestAnswer = Static<typeof ChannelTestAnswer>;

export const ChannelBalance = Type.Object({
  /** USD left on the upstream account. */
  balance: Type.Number(),
  balance_updated_time: Type.Number(),
});
export type ChannelBalance = Static<typeof ChannelBalance>;

/** GET /api/channel/update_balance/{id}: `{success, message, balance, data: {balance, balance_updated_time}}`. */
export const ChannelBalanceAnswer = Type.Object({
  ...EnvelopeFields,
  balance: Type.Optional(Type.Number()),
  data: Type.Optional(ChannelBalance),
});
export type ChannelBalanceAnswer = Static<typeof ChannelBalanceAnswer>;

export const BalanceSweepView = Type.Object({ updated: Type.Integer(), failed: Type.Integer() });
export type BalanceSweepView = Static<typeof BalanceSweepView>;

export const FetchModelsBody = Type.Object({
  base_url: Type.Optional(Type.Union([Type.String({ maxLength: 2048 }), Type.Null()])),
  type: Type.Optional(Type.Integer()),
  key: Type.Optional(Type.String({ maxLength: 65_536 })),
});
export type FetchModelsBody = Static<typeof FetchModelsBody>;

const OPENAI_TYPE = 1;

export default async function channelHealthRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { ctx } = app;

  async function channelOrFail(id: number) {
    const channel = await findChannel(ctx.db, id);
    if (!channel) throw fail('channel.not_found');
    return channel;
  }

  app.get(
    '/api/channel/test/:id',
    {
      onRequest: requireAdmin,
      schema: { params: ChannelIdParams, querystring: ChannelTestQuery, response: { 200: ChannelTestAnswer } },
    },
    async (request): Promise<ChannelTestAnswer> => {
      const channel = await channelOrFail(request.params.id);
      const result = await testChannel(ctx, channel, request.query.model);
      return { success: result.success, message: result.message, time: result.seconds, data: { time: result.seconds } };
    },
  );

  app.get(
    '/api/channel/test',
    { onRequest: requireAdmin, schema: { response: { 200: Envelope(Type.Null()) } } },
    async (request) => {
      if (!startTestAll(ctx, (err) => request.log.error({ err }, 'channel test-all failed'))) throw fail('channel.test_running');
      return ok(undefined, TEST_MSG.started);
    },
  );

  for (const path of ['/api/channel/update_balance/:id', '/api/channel/update_balance/:id/']) {
    app.get(
      path,
      { onRequest: requireAdmin, schema: { params: ChannelIdParams, response: { 200: ChannelBalanceAnswer } } },
      async (request): Promise<ChannelBalanceAnswer> => {
        const result = await updateBalance(ctx, await channelOrFail(request.params.id));
        return { success: true, message: '', balance: result.balance, data: result };
      },
    );
  }

  app.get(
    '/api/channel/update_balance',
    { onRequest: requireAdmin, schema: { response: { 200: Envelope(BalanceSweepView) } } },
    async () => ok(await updateAllBalances(ctx)),
  );

  app.get(
    '/api/channel/fetch_models/:id',
    { onRequest: requireAdmin, schema: { params: ChannelIdParams, response: { 200: Envelope(StringList) } } },
    async (request) => ok(await fetchChannelModels(await channelOrFail(request.params.id))),
  );

  app.post(
    '/api/channel/fetch_models',
    {
      onRequest: requireAdmin,
      schema: { body: FetchModelsBody, response: { 200: Envelope(StringList) } },
      config: { audit: { exempt: 'asks an upstream for its model list; changes nothing' } },
    },
    async (request) => {
      const key = firstKey(request.body.key);
      const type = request.body.type ?? OPENAI_TYPE;
      if (key === '' && keyRequired(type)) throw fail('channel.models_key_required');
      const input = { type, base_url: request.body.base_url, key };
      return ok(await fetchModelsAt(input, privateUpstreamsAllowed()));
    },
  );
}
