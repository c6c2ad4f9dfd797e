/**
 * Ratio sync from other gateways (root), and the public price maps other gateways read from us:
 * - GET /api/ratio_sync/channels: channels with a base URL, and the family's official preset;
 * - POST /api/ratio_sync/fetch {upstreams | channel_ids, timeout}: reads each upstream and answers
 *   `{differences, test_results}`; nothing is saved (the admin applies through PUT /api/option/);
 * - GET /api/ratio_config: our model_ratio, completion_ratio, cache_ratio and model_price, only
 *   while ExposeRatioEnabled is on (403 otherwise, as the family answers).
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { requireRoot } from '../auth/guard.js';
import { ok } from '../http/envelope.js';
import { fail, refuse } from '../http/errors.js';
import { criticalLimit } from '../ratelimit/hooks.js';
import type { OptionStore } from '../options/store.js';
import { findChannelsByIds, findChannelsWithBaseUrl } from '../channels/list-repository.js';
import { buildDifferences, priceMap, RATIO_OPTIONS, RATIO_TYPES, type RatioData } from './ratio-sync.js';
import { DEFAULT_TIMEOUT_SECONDS, readUpstreams, vetUpstreams, type Upstream } from './ratio-fetch.js';

const OFFICIAL_PRESET = { id: -100, name: '官方倍率预设', base_url: 'https://basellm.github.io', status: 1, type: 0 };

const FetchBody = Type.Object({
  channel_ids: Type.Optional(Type.Array(Type.Integer(), { maxItems: 100 })),
  upstreams: Type.Optional(
    Type.Array(
      Type.Object({
        id: Type.Optional(Type.Integer()),
        name: Type.String({ minLength: 1, maxLength: 128 }),
        base_url: Type.String({ minLength: 1, maxLength: 2048 }),
        endpoint: Type.Optional(Type.String({ maxLength: 2048 })),
      }),
      { maxItems: 20 },
    ),
  ),
  /** Seconds for each upstream; 0 or absent is 10. */
  timeout: Type.Optional(Type.Integer({ minimum: 0, maximum: 30 })),
});
type FetchBody = Static<typeof FetchBody>;

/** Our price maps as the family exposes them. */
export function localRatios(options: OptionStore): RatioData {
  const data = {} as RatioData;
  for (const type of RATIO_TYPES) data[type] = priceMap(options.json(RATIO_OPTIONS[type]));
  return data;
}

export default async function ratioSyncRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { db, options } = app.ctx;

  app.get('/api/ratio_sync/channels', { onRequest: requireRoot }, async () => {
    const channels = await findChannelsWithBaseUrl(db);
    return ok([...channels, OFFICIAL_PRESET]);
  });

  /** The upstreams a request names: typed ones as given, or stored channels by id (those with a web base URL). */
  async function upstreamsOf(body: FetchBody): Promise<Upstream[]> {
    if (body.upstreams && body.upstreams.length > 0) {
      await vetUpstreams(body.upstreams);
      return body.upstreams;
    }
    if (!body.channel_ids || body.channel_ids.length === 0) return [];
    const byId = new Map((await findChannelsByIds(db, body.channel_ids)).map((c) => [c.id, c]));
    return [...new Set(body.channel_ids)]
      .map((id) => byId.get(id))
      .filter((c) => c !== undefined && /^https?:\/\//i.test(c.base_url ?? ''))
      .map((c) => ({ id: c!.id, name: c!.name, base_url: c!.base_url! }));
  }

  app.post(
    '/api/ratio_sync/fetch',
    {
      onRequest: requireRoot,
      schema: { body: FetchBody },
      config: { audit: { exempt: 'reads other gateways’ prices and compares them; saves nothing' } },
    },
    async (request) => {
      const upstreams = await upstreamsOf(request.body);
      if (upstreams.length === 0) throw fail('ratio_sync.no_upstreams');
      const { read, results } = await readUpstreams(upstreams, request.body.timeout || DEFAULT_TIMEOUT_SECONDS);
      return ok({ differences: buildDifferences(localRatios(options), read), test_results: results });
    },
  );

  app.get('/api/ratio_config', { preHandler: criticalLimit }, async () => {
    if (!options.bool('ExposeRatioEnabled')) throw refuse(403, 'ratio_config.disabled');
    return ok(localRatios(options));
  });
}
