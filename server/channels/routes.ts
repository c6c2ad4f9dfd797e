/**
 * The admin channel API. Reads need an admin; so do creating, quick edits (status, priority,
 * weight), enabling or disabling a tag and the abilities repair. Full edits, copies, deletes and
 * tag edits need the root user. Every change is announced on the bus topic
 * `channel`, which the channel cache of every gateway process follows.
 */
import type { FastifyInstance } from 'fastify';
import { TYPE_MODELS } from './type-models.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { requireAdmin } from '../auth/guard.js';
import { ok, pageParams } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import type { ChannelFilter } from './list-repository.js';
import { listChannels, type ListOptions } from './listing.js';
import { describeChannels } from './describe.js';
import keyRoutes from './keys/routes.js';
import { channelModels, findChannelView } from './repository.js';
import {
  ChannelIdParams,
  ChannelListQuery,
  ChannelNewSearchQuery,
  ChannelPage,
  ChannelSearchQuery,
  ChannelView,
  ModelList,
  StringList,
  type ChannelStatusFilter,
} from './schemas.js';
import { Envelope } from '../http/schemas.js';
import { CHANNEL_AUTO_DISABLED, CHANNEL_ENABLED, CHANNEL_MANUALLY_DISABLED } from './types.js';
import writeRoutes from './write-routes.js';
import tagRoutes from './tag-routes.js';
import upstreamUpdateRoutes from './upstream-update-routes.js';

function listOptions(query: ChannelListQuery): ListOptions {
  return { ...pageParams(query), idSort: query.id_sort === true, tagMode: query.tag_mode === true, type: query.type };
}

const STATUS_FILTERS: Record<ChannelStatusFilter, number | undefined> = {
  '': undefined,
  all: undefined,
  '0': undefined,
  enabled: CHANNEL_ENABLED,
  '1': CHANNEL_ENABLED,
  disabled: CHANNEL_MANUALLY_DISABLED,
  '2': CHANNEL_MANUALLY_DISABLED,
  auto_disabled: CHANNEL_AUTO_DISABLED,
  '3': CHANNEL_AUTO_DISABLED,
};

function searchFilter(query: ChannelSearchQuery): ChannelFilter {
  return { keyword: query.keyword?.trim(), group: query.group?.trim(), model: query.model?.trim() };
}

export default async function channelRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.ctx;
  const page = { 200: Envelope(ChannelPage) };
  const described = async (filter: ChannelFilter, opts: ListOptions) => {
    const found = await listChannels(db, filter, opts);
    await describeChannels(app.ctx, found.items);
    return ok(found);
  };

  // The searches carry no search rate limit: they are admin-only, escape LIKE wildcards, and the
  // console pages through their results, which a 10-per-minute limit would break.

  app.get(
    '/api/channel/',
    { onRequest: requireAdmin, schema: { querystring: ChannelListQuery, response: page } },
    async (request) => described({}, listOptions(request.query)),
  );

  app.get(
    '/api/channel/search',
    { onRequest: requireAdmin, schema: { querystring: ChannelSearchQuery, response: page } },
    async (request) => described(searchFilter(request.query), listOptions(request.query)),
  );

  app.get(
    '/api/channel/new/search',
    { onRequest: requireAdmin, schema: { querystring: ChannelNewSearchQuery, response: page } },
    async (request) => {
      const { query } = request;
      const filter: ChannelFilter = { ...searchFilter(query), status: STATUS_FILTERS[query.status ?? ''] };
      const key = query.key?.trim();
      if (key) {
        if (!filter.model) throw fail('channel.key_search_needs_model');
        filter.key = key;
      }
      return described(filter, listOptions(query));
    },
  );

  app.get(
    '/api/channel/models_enabled',
    { onRequest: requireAdmin, schema: { response: { 200: Envelope(StringList) } } },
    async () => ok(await channelModels(db, true)),
  );

  app.get('/api/channel/modelNames', { onRequest: requireAdmin, schema: { response: { 200: Envelope(StringList) } } }, async () =>
    ok(await channelModels(db, false)),
  );

  app.get('/api/channel/models', { onRequest: requireAdmin, schema: { response: { 200: Envelope(ModelList) } } }, async () =>
    ok((await channelModels(db, false)).map((id) => ({ id }))),
  );

  // Channel type → the models it is known to serve (the console's "fill models").
  app.get('/api/models', { onRequest: requireAdmin }, async () => ok(TYPE_MODELS));

  app.get(
    '/api/channel/:id',
    { onRequest: requireAdmin, schema: { params: ChannelIdParams, response: { 200: Envelope(ChannelView) } } },
    async (request) => {
      const channel = await findChannelView(db, request.params.id);
      if (!channel) throw fail('channel.not_found');
      await describeChannels(app.ctx, [channel]);
      return ok(channel);
    },
  );

  await app.register(writeRoutes);
  await app.register(tagRoutes);
  await app.register(keyRoutes);
  await app.register(upstreamUpdateRoutes);
}
