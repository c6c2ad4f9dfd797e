/**
 * /api/prefill_group (admins): list (optionally of one `type`), create, edit and delete the named
 * lists the family's channel editor prefills models, tags and endpoints from.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { requireAdmin } from '../auth/guard.js';
import { isUniqueViolation } from '../db/errors.js';
import { nowSeconds } from '../db/index.js';
import { ok } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import { fromBody, fromParams, idOfData } from '../audit/targets.js';
import { EnvelopeFields } from '../http/schemas.js';
import { Type } from '@sinclair/typebox';
import {
  deletePrefillGroup,
  findPrefillGroup,
  insertPrefillGroup,
  isPrefillNameTaken,
  listPrefillGroups,
  prefillFields,
  toPrefillView,
  updatePrefillGroup,
  type PrefillFields,
} from './repository.js';
import {
  CreatePrefillBody,
  PREFILL_TYPES,
  PrefillGroupAnswer,
  PrefillIdParams,
  PrefillListAnswer,
  PrefillListQuery,
  type UpdatePrefillBody,
} from './schemas.js';

const MAX_ITEM_LENGTH = 255;

/** The items as a list of trimmed, distinct, non-empty names; JSON text must hold such an array. */
function checkItems(input: unknown): string[] {
  let list: unknown = input;
  if (typeof input === 'string') {
    try {
      list = input.trim() === '' ? [] : (JSON.parse(input) as unknown);
    } catch {
      throw fail('prefill.items_invalid');
    }
  }
  if (!Array.isArray(list) || list.some((v) => typeof v !== 'string' || v.length > MAX_ITEM_LENGTH)) {
    throw fail('prefill.items_invalid');
  }
  return [...new Set((list as string[]).map((v) => v.trim()).filter((v) => v !== ''))];
}

/** The fields after `body` is applied to `base`, checked. */
function checkFields(body: Partial<Omit<UpdatePrefillBody, 'id'>>, base: PrefillFields): PrefillFields {
  const name = (body.name ?? base.name).trim();
  const type = (body.type ?? base.type).trim();
  if (name === '' || type === '') throw fail('prefill.name_type_required');
  if (!(PREFILL_TYPES as readonly string[]).includes(type)) throw fail('prefill.type_invalid', { type });
  return {
    name,
    type,
    items: body.items === undefined ? base.items : checkItems(body.items),
    description: (body.description ?? base.description).trim(),
  };
}

const EMPTY: PrefillFields = { name: '', type: '', items: [], description: '' };

export default async function prefillRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { db, dbKind } = app.ctx;

  async function save(write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (err) {
      // Two admins saving the same name at once: the unique index decides.
      if (isUniqueViolation(err)) throw fail('prefill.name_taken');
      throw err;
    }
  }

  for (const url of ['/api/prefill_group', '/api/prefill_group/']) {
    app.get(
      url,
      { onRequest: requireAdmin, schema: { querystring: PrefillListQuery, response: { 200: PrefillListAnswer } } },
      async (request) => ok((await listPrefillGroups(db, (request.query.type ?? '').trim())).map(toPrefillView)),
    );

    app.post(
      url,
      {
        onRequest: requireAdmin,
        schema: { body: CreatePrefillBody, response: { 200: PrefillGroupAnswer } },
        config: { audit: { subject: 'prefill_group', action: 'create', created: idOfData } },
      },
      async (request) => {
        const fields = checkFields(request.body, EMPTY);
        if (await isPrefillNameTaken(db, fields.name)) throw fail('prefill.name_taken');
        let id = 0;
        await save(async () => (id = await insertPrefillGroup(db, dbKind, fields, nowSeconds())));
        const created = await findPrefillGroup(db, id);
        if (!created) throw fail('prefill.not_found');
        return ok(toPrefillView(created));
      },
    );

    app.put(
      url,
      {
        onRequest: requireAdmin,
        schema: { body: Type.Composite([PrefillIdParams, CreatePrefillBody]), response: { 200: PrefillGroupAnswer } },
        config: { audit: { subject: 'prefill_group', action: 'update', target: fromBody() } },
      },
      async (request) => {
        const stored = await findPrefillGroup(db, request.body.id);
        if (!stored) throw fail('prefill.not_found');
        const fields = checkFields(request.body, prefillFields(stored));
        if (await isPrefillNameTaken(db, fields.name, stored.id)) throw fail('prefill.name_taken');
        await save(() => updatePrefillGroup(db, stored.id, fields, nowSeconds()));
        const updated = await findPrefillGroup(db, stored.id);
        if (!updated) throw fail('prefill.not_found');
        return ok(toPrefillView(updated));
      },
    );
  }

  app.delete(
    '/api/prefill_group/:id',
    {
      onRequest: requireAdmin,
      schema: { params: PrefillIdParams, response: { 200: Type.Object(EnvelopeFields) } },
      config: { audit: { subject: 'prefill_group', action: 'delete', target: fromParams } },
    },
    async (request) => {
      if (!(await deletePrefillGroup(db, request.params.id))) throw fail('prefill.not_found');
      return ok();
    },
  );
}
