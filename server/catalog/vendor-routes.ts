/**
 * Vendors, the admin resource /api/vendors/* as new-api has it: list, search, read, create, edit,
 * delete. Deleting a vendor leaves its models without one (the pricing page then names the
 * built-in vendor their name suggests). Every write tells the price list of every process.
 */
import { fromBody, fromParams, idOfData } from '../audit/targets.js';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { requireAdmin } from '../auth/guard.js';
import { nowSeconds } from '../db/index.js';
import { isUniqueViolation } from '../db/errors.js';
import type { Vendor } from '../db/types.js';
import { ok, pageParams } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import { CATALOG_TOPIC } from './catalogue-cache.js';
import { clearVendor, vendorModelCounts } from './models-repository.js';
import {
  CATALOG_ENABLED,
  CatalogIdParams,
  CatalogPageQuery,
  CreateVendorBody,
  EmptyAnswer,
  UpdateVendorBody,
  VendorAnswer,
  VendorPageAnswer,
  VendorSearchQuery,
  type VendorPage,
  type VendorView,
} from './schemas.js';
import { checkIcon, checkName } from './validation.js';
import {
  countVendors,
  deleteVendor,
  findVendor,
  insertVendor,
  listVendors,
  updateVendor,
  vendorNameTaken,
  type VendorFields,
} from './vendors-repository.js';

function toVendorView(row: Vendor, counts: ReadonlyMap<number, number>): VendorView {
  return {
    id: row.id,
    name: row.name,
    description: row.description ?? '',
    icon: row.icon,
    status: row.status,
    created_time: Number(row.created_time),
    updated_time: Number(row.updated_time),
    model_count: counts.get(row.id) ?? 0,
  };
}

export default async function vendorRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { db, dbKind, bus } = app.ctx;

  async function existing(id: number): Promise<Vendor> {
    const row = await findVendor(db, id);
    if (!row) throw fail('vendor.not_found');
    return row;
  }

  async function view(id: number): Promise<VendorView> {
    return toVendorView(await existing(id), await vendorModelCounts(db));
  }

  async function page(keyword: string, query: CatalogPageQuery): Promise<VendorPage> {
    const { page, pageSize, offset } = pageParams(query);
    const [total, rows, counts] = await Promise.all([
      countVendors(db, keyword),
      listVendors(db, keyword, pageSize, offset),
      vendorModelCounts(db),
    ]);
    return { items: rows.map((row) => toVendorView(row, counts)), total, page, page_size: pageSize };
  }

  /** The checked fields of a new vendor, or of `current` changed by `body`. */
  async function fields(body: CreateVendorBody, current: Vendor | null): Promise<VendorFields> {
    const name = body.name === undefined && current ? current.name : checkName(body.name, 'vendor.name_required');
    if (await vendorNameTaken(db, name, current?.id)) throw fail('vendor.name_taken');
    return {
      name,
      description: body.description ?? current?.description ?? '',
      icon: body.icon === undefined && current ? current.icon : checkIcon(body.icon),
      status: body.status ?? current?.status ?? CATALOG_ENABLED,
    };
  }

  /** A write racing another for one name loses on the unique index: the same refusal. */
  async function guarded<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw fail('vendor.name_taken');
      throw err;
    }
  }

  for (const url of ['/api/vendors/', '/api/vendors']) {
    app.get(
      url,
      { onRequest: requireAdmin, schema: { querystring: CatalogPageQuery, response: { 200: VendorPageAnswer } } },
      async (request) => ok(await page('', request.query)),
    );

    app.post(
      url,
      {
        onRequest: requireAdmin,
        schema: { body: CreateVendorBody, response: { 200: VendorAnswer } },
        config: { audit: { subject: 'vendor', action: 'create', created: idOfData } },
      },
      async (request) => {
        const values = await fields(request.body, null);
        const id = await guarded(() => insertVendor(db, dbKind, values, nowSeconds()));
        bus.publish(CATALOG_TOPIC);
        return ok(await view(id));
      },
    );

    app.put(
      url,
      {
        onRequest: requireAdmin,
        schema: { body: UpdateVendorBody, response: { 200: VendorAnswer } },
        config: { audit: { subject: 'vendor', action: 'update', target: fromBody() } },
      },
      async (request) => {
        const current = await existing(request.body.id);
        const values = await fields(request.body, current);
        if (!(await guarded(() => updateVendor(db, current.id, values, nowSeconds())))) throw fail('vendor.not_found');
        bus.publish(CATALOG_TOPIC);
        return ok(await view(current.id));
      },
    );
  }

  app.get(
    '/api/vendors/search',
    { onRequest: requireAdmin, schema: { querystring: VendorSearchQuery, response: { 200: VendorPageAnswer } } },
    async (request) => ok(await page((request.query.keyword ?? '').trim(), request.query)),
  );

  app.get(
    '/api/vendors/:id',
    { onRequest: requireAdmin, schema: { params: CatalogIdParams, response: { 200: VendorAnswer } } },
    async (request) => ok(await view(request.params.id)),
  );

  for (const url of ['/api/vendors/:id/', '/api/vendors/:id']) {
    app.delete(
      url,
      {
        onRequest: requireAdmin,
        schema: { params: CatalogIdParams, response: { 200: EmptyAnswer } },
        config: { audit: { subject: 'vendor', action: 'delete', target: fromParams } },
      },
      async (request) => {
        const id = request.params.id;
        const deleted = await db.transaction().execute(async (trx) => {
          const gone = await deleteVendor(trx, id);
          if (gone) await clearVendor(trx, id, nowSeconds());
          return gone;
        });
        if (!deleted) throw fail('vendor.not_found');
        bus.publish(CATALOG_TOPIC);
        return ok();
      },
    );
  }
}
