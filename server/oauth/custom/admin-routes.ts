/**
 * The root's custom sign-in providers (`/api/custom-oauth-provider/`), in the family's shapes:
 * list, read, create, edit (absent fields keep their value), delete (refused while live users are
 * bound), and the OIDC discovery document read through the SSRF-safe fetcher to fill the form.
 * The client secret is written, never answered.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { requireRoot } from '../../auth/guard.js';
import { nowSeconds } from '../../db/index.js';
import { fromParams, idOfData } from '../../audit/targets.js';
import { ok } from '../../http/envelope.js';
import { fail } from '../../http/errors.js';
import { numericIdOnly } from '../../http/numeric-id.js';
import { safeFetch } from '../../http/safe-fetch.js';
import { countLiveUsers } from '../../users/repository.js';
import { ProviderBody, providerAnswer, resolveFields } from './config.js';
import {
  boundUserIds,
  deleteProvider,
  findProvider,
  insertProvider,
  isSlugTaken,
  listProviders,
  updateProvider,
} from './repository.js';

const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) });
const DiscoveryBody = Type.Object({
  well_known_url: Type.Optional(Type.String({ maxLength: 2048 })),
  issuer_url: Type.Optional(Type.String({ maxLength: 2048 })),
});
const DISCOVERY_MAX_BYTES = 512 * 1024;

export default async function customProviderAdminRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;
  const { db } = ctx;

  async function existing(id: number) {
    const row = await findProvider(db, id);
    if (!row) throw fail('custom_oauth.not_found');
    return row;
  }

  app.get('/api/custom-oauth-provider/', { onRequest: requireRoot }, async () =>
    ok((await listProviders(db)).map(providerAnswer)),
  );

  app.get(
    '/api/custom-oauth-provider/:id',
    { onRequest: [numericIdOnly, requireRoot], schema: { params: IdParams } },
    async (request) => ok(providerAnswer(await existing(request.params.id))),
  );

  app.post(
    '/api/custom-oauth-provider/',
    {
      onRequest: requireRoot,
      schema: { body: ProviderBody },
      config: { audit: { subject: 'oauth_provider', action: 'create', created: idOfData } },
    },
    async (request) => {
      const fields = resolveFields(request.body);
      if (await isSlugTaken(db, fields.slug)) throw fail('custom_oauth.slug_taken');
      const id = await insertProvider(db, ctx.dbKind, fields, nowSeconds());
      return ok(providerAnswer(await existing(id)), '创建成功');
    },
  );

  app.put(
    '/api/custom-oauth-provider/:id',
    {
      onRequest: [numericIdOnly, requireRoot],
      schema: { params: IdParams, body: ProviderBody },
      config: { audit: { subject: 'oauth_provider', action: 'update', target: fromParams } },
    },
    async (request) => {
      const row = await existing(request.params.id);
      const fields = resolveFields(request.body, row);
      if (await isSlugTaken(db, fields.slug, row.id)) throw fail('custom_oauth.slug_taken');
      await updateProvider(db, row.id, fields, nowSeconds());
      return ok(providerAnswer(await existing(row.id)), '更新成功');
    },
  );

  app.delete(
    '/api/custom-oauth-provider/:id',
    {
      onRequest: [numericIdOnly, requireRoot],
      schema: { params: IdParams },
      config: { audit: { subject: 'oauth_provider', action: 'delete', target: fromParams } },
    },
    async (request) => {
      const row = await existing(request.params.id);
      if ((await countLiveUsers(db, await boundUserIds(db, row.id))) > 0) throw fail('custom_oauth.has_bindings');
      await deleteProvider(db, row.id);
      return ok(undefined, '删除成功');
    },
  );

  app.post(
    '/api/custom-oauth-provider/discovery',
    {
      onRequest: requireRoot,
      schema: { body: DiscoveryBody },
      config: { audit: { exempt: 'reads a discovery document; changes nothing' } },
    },
    async (request) => {
      const wellKnown = request.body.well_known_url?.trim() ?? '';
      const issuer = request.body.issuer_url?.trim() ?? '';
      if (!wellKnown && !issuer) throw fail('custom_oauth.discovery_url_required');
      const url = wellKnown || `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
      if (!/^https?:\/\//i.test(url)) throw fail('custom_oauth.discovery_failed', { detail: '仅支持 http/https 地址' });
      let discovery: unknown;
      try {
        const res = await safeFetch(url, {
          headers: { Accept: 'application/json' },
          timeoutMs: 10_000,
          maxBytes: DISCOVERY_MAX_BYTES,
        });
        if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
        discovery = JSON.parse(res.text());
      } catch (err) {
        throw fail('custom_oauth.discovery_failed', { detail: (err as Error).message });
      }
      if (!discovery || typeof discovery !== 'object' || Array.isArray(discovery))
        throw fail('custom_oauth.discovery_failed', { detail: '返回的不是 JSON 对象' });
      return ok({ well_known_url: url, discovery });
    },
  );
}
