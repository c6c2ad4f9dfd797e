/**
 * Model metadata, the admin resource /api/models/* as new-api has it: list (with the number of
 * rows per vendor), search (keyword, vendor id or name, status, sync flag), read, create, edit (or
 * only the status with `?status_only=true`), delete, the served models no row names yet
 * (`/api/models/missing`), and rows synced from the official catalogue (`sync_upstream`, its
 * preview). Every write tells the price list of every process.
 *
 * `GET /api/models` without the slash stays the channel screen's list of models per channel type.
 */
import { fromBody, fromParams, idOfData, textOf } from '../audit/targets.js';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { requireAdmin } from '../auth/guard.js';
import { nowSeconds } from '../db/index.js';
import { isUniqueViolation } from '../db/errors.js';
import type { ModelMeta } from '../db/types.js';
import { ok, pageParams } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import { pricingItems } from '../pricing/items.js';
import { criticalLimit } from '../ratelimit/hooks.js';
import { CATALOG_TOPIC } from './catalogue-cache.js';
import {
  countModels,
  deleteModel,
  findModel,
  insertModel,
  listModels,
  modelNameTaken,
  namedModels,
  updateModel,
  vendorModelCounts,
  type ModelFields,
  type ModelFilter,
} from './models-repository.js';
import {
  CATALOG_ENABLED,
  CatalogIdParams,
  CreateModelBody,
  EmptyAnswer,
  MissingModelsAnswer,
  ModelAnswer,
  ModelPageAnswer,
  ModelPageQuery,
  ModelSearchQuery,
  NAME_RULE_EXACT,
  UpdateModelBody,
  UpdateModelQuery,
  SyncBody,
  SyncPreviewAnswer,
  SyncPreviewQuery,
  SyncResultAnswer,
  type ModelPage,
  type ModelView,
} from './schemas.js';
import { servedFor } from './served.js';
import { syncPreview, syncUpstream, type SyncDeps } from './sync.js';
import { catalogueLocale } from './upstream.js';
import { checkEndpoints, checkIcon, checkName, normalizeTags } from './validation.js';
import { findVendor, vendorIdsNamed } from './vendors-repository.js';

function toModelView(
  row: ModelMeta,
): Omit<ModelView, 'matched_models' | 'matched_count' | 'enable_groups' | 'quota_types' | 'bound_channels'> {
  return {
    id: row.id,
    model_name: row.model_name,
    description: row.description ?? '',
    icon: row.icon,
    tags: row.tags,
    vendor_id: row.vendor_id,
    endpoints: row.endpoints ?? '',
    context_length: row.context_length,
    max_output_tokens: row.max_output_tokens,
    knowledge_cutoff: row.knowledge_cutoff,
    release_date: row.release_date,
    parameter_count: row.parameter_count,
    input_modalities: row.input_modalities,
    output_modalities: row.output_modalities,
    status: row.status,
    sync_official: row.sync_official,
    name_rule: row.name_rule,
    created_time: Number(row.created_time),
    updated_time: Number(row.updated_time),
  };
}

const NO_MATCH = { matched_models: [], matched_count: 0, enable_groups: [], quota_types: [], bound_channels: [] };

export default async function modelMetaRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;
  const { db, dbKind, bus } = ctx;

  async function existing(id: number): Promise<ModelMeta> {
    const row = await findModel(db, id);
    if (!row) throw fail('model.not_found');
    return row;
  }

  function views(rows: readonly ModelMeta[]): ModelView[] {
    const served = servedFor(ctx, rows);
    return rows.map((row) => ({ ...toModelView(row), ...(served.get(row.id) ?? NO_MATCH) }));
  }

  async function view(id: number): Promise<ModelView> {
    const [one] = views([await existing(id)]);
    if (!one) throw fail('model.not_found');
    return one;
  }

  /** A vendor filter: an id, or part of vendors' names; `null` when none is asked for. */
  async function vendorIds(vendor: string): Promise<number[] | null> {
    if (vendor === '') return null;
    if (/^\d{1,9}$/.test(vendor)) return [Number(vendor)];
    return vendorIdsNamed(db, vendor);
  }

  async function page(query: ModelSearchQuery): Promise<ModelPage> {
    const { page, pageSize, offset } = pageParams(query);
    const filter: ModelFilter = {
      keyword: (query.keyword ?? '').trim(),
      vendorIds: await vendorIds((query.vendor ?? '').trim()),
      status: query.status,
      syncOfficial: query.sync_official,
    };
    const [total, rows, counts] = await Promise.all([
      countModels(db, filter),
      listModels(db, filter, pageSize, offset),
      vendorModelCounts(db),
    ]);
    return {
      items: views(rows),
      total,
      page,
      page_size: pageSize,
      vendor_counts: Object.fromEntries([...counts].map(([id, n]) => [String(id), n])),
    };
  }

  /** The checked fields of a new row, or of `current` changed by `body`. */
  async function fields(body: CreateModelBody, current: ModelMeta | null): Promise<ModelFields> {
    const name =
      body.model_name === undefined && current ? current.model_name : checkName(body.model_name, 'model.name_required');
    if (await modelNameTaken(db, name, current?.id)) throw fail('model.name_taken');
    const vendorId = body.vendor_id ?? current?.vendor_id ?? 0;
    if (vendorId !== 0 && !(await findVendor(db, vendorId))) throw fail('model.vendor_missing', { id: vendorId });
    const keep = <K extends keyof ModelFields>(key: K, fallback: ModelFields[K]): ModelFields[K] =>
      (body[key] as ModelFields[K] | undefined) ?? (current ? (current[key] as ModelFields[K]) : fallback);
    return {
      model_name: name,
      description: body.description ?? current?.description ?? '',
      icon: body.icon === undefined && current ? current.icon : checkIcon(body.icon),
      tags: body.tags === undefined && current ? current.tags : normalizeTags(body.tags),
      vendor_id: vendorId,
      endpoints: body.endpoints === undefined && current ? (current.endpoints ?? '') : checkEndpoints(body.endpoints),
      context_length: keep('context_length', 0),
      max_output_tokens: keep('max_output_tokens', 0),
      knowledge_cutoff: keep('knowledge_cutoff', '').trim(),
      release_date: keep('release_date', '').trim(),
      parameter_count: keep('parameter_count', '').trim(),
      input_modalities: keep('input_modalities', '').trim(),
      output_modalities: keep('output_modalities', '').trim(),
      status: keep('status', CATALOG_ENABLED),
      sync_official: keep('sync_official', 1),
      name_rule: keep('name_rule', NAME_RULE_EXACT),
    };
  }

  /** A write racing another for one name loses on the unique index: the same refusal. */
  async function guarded<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw fail('model.name_taken');
      throw err;
    }
  }

  app.get(
    '/api/models/',
    { onRequest: requireAdmin, schema: { querystring: ModelPageQuery, response: { 200: ModelPageAnswer } } },
    async (request) => ok(await page(request.query)),
  );

  app.get(
    '/api/models/search',
    { onRequest: requireAdmin, schema: { querystring: ModelSearchQuery, response: { 200: ModelPageAnswer } } },
    async (request) => ok(await page(request.query)),
  );

  async function missing(): Promise<string[]> {
    const served = pricingItems(ctx).map((item) => item.model_name);
    const named = await namedModels(db, served);
    return served.filter((name) => !named.has(name));
  }

  app.get('/api/models/missing', { onRequest: requireAdmin, schema: { response: { 200: MissingModelsAnswer } } }, async () =>
    ok(await missing()),
  );

  const syncDeps: SyncDeps = { db, dbKind, base: ctx.config.syncUpstreamBase, missing, now: nowSeconds };

  app.get(
    '/api/models/sync_upstream/preview',
    { onRequest: requireAdmin, schema: { querystring: SyncPreviewQuery, response: { 200: SyncPreviewAnswer } } },
    async (request) => ok(await syncPreview(syncDeps, catalogueLocale(request.query.locale))),
  );

  app.post(
    '/api/models/sync_upstream',
    {
      onRequest: [requireAdmin, criticalLimit],
      schema: { body: SyncBody, response: { 200: SyncResultAnswer } },
      // A sync writes rows by the hundred: its counts say what it did.
      config: {
        audit: {
          subject: 'model',
          action: 'sync_upstream',
          detail: (_request, data) => {
            const counts = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
            const n = (k: string) => (typeof counts[k] === 'number' ? (counts[k] as number) : 0);
            return {
              created_models: n('created_models'),
              updated_models: n('updated_models'),
              created_vendors: n('created_vendors'),
            };
          },
        },
      },
    },
    async (request) => {
      const result = await syncUpstream(syncDeps, catalogueLocale(request.body.locale), request.body.overwrite ?? []);
      if (result.created_models + result.updated_models + result.created_vendors > 0) bus.publish(CATALOG_TOPIC);
      return ok(result);
    },
  );

  app.get(
    '/api/models/:id',
    { onRequest: requireAdmin, schema: { params: CatalogIdParams, response: { 200: ModelAnswer } } },
    async (request) => ok(await view(request.params.id)),
  );

  for (const url of ['/api/models/', '/api/models']) {
    app.post(
      url,
      {
        onRequest: requireAdmin,
        schema: { body: CreateModelBody, response: { 200: ModelAnswer } },
        config: { audit: { subject: 'model', action: 'create', created: idOfData } },
      },
      async (request) => {
        const values = await fields(request.body, null);
        const id = await guarded(() => insertModel(db, dbKind, values, nowSeconds()));
        bus.publish(CATALOG_TOPIC);
        return ok(await view(id));
      },
    );

    app.put(
      url,
      {
        onRequest: requireAdmin,
        schema: { querystring: UpdateModelQuery, body: UpdateModelBody, response: { 200: ModelAnswer } },
        config: {
          audit: {
            subject: 'model',
            action: (request) => (textOf(request.query, 'status_only') === 'true' ? 'status' : 'update'),
            target: fromBody(),
          },
        },
      },
      async (request) => {
        const body = request.body;
        const current = await existing(body.id);
        const values = request.query.status_only ? { status: body.status ?? current.status } : await fields(body, current);
        if (!(await guarded(() => updateModel(db, current.id, values, nowSeconds())))) throw fail('model.not_found');
        bus.publish(CATALOG_TOPIC);
        return ok(await view(current.id));
      },
    );
  }

  for (const url of ['/api/models/:id/', '/api/models/:id']) {
    app.delete(
      url,
      {
        onRequest: requireAdmin,
        schema: { params: CatalogIdParams, response: { 200: EmptyAnswer } },
        config: { audit: { subject: 'model', action: 'delete', target: fromParams } },
      },
      async (request) => {
        if (!(await deleteModel(db, request.params.id))) throw fail('model.not_found');
        bus.publish(CATALOG_TOPIC);
        return ok();
      },
    );
  }
}
