/** Creating, copying, editing and deleting channels. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Updateable } from 'kysely';
import { currentUser, requireAdmin, requireRoot } from '../auth/guard.js';
import { ROLE_ROOT } from '../auth/roles.js';
import type { Channel, ChannelsTable } from '../db/types.js';
import { ok } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import {
  checkChannelFields,
  checkManualStatus,
  parsePriority,
  parseWeight,
  splitBatchKeys,
  type ChannelFieldsInput,
} from './input.js';
import { fixAbilities } from './abilities-repository.js';
import {
  deleteChannels,
  deleteDisabledChannels,
  findChannel,
  findChannelView,
  insertChannels,
  updateChannel,
} from './repository.js';
import { ChannelIdParams, ChannelView, CopyQuery, Count, CreateChannelBody, IdsBody, UpdateChannelBody } from './schemas.js';
import { Envelope } from '../http/schemas.js';
import { CHANNEL_AUTO_DISABLED, CHANNEL_ENABLED, CHANNEL_MANUALLY_DISABLED, VERTEX_TYPE } from './types.js';

const NAME_MAX = 128;
const DEFAULT_COPY_SUFFIX = '_复制';

/** The fields whose presence makes a PUT a full edit rather than a quick status/priority/weight edit. */
const FULL_EDIT_FIELDS = [
  'name',
  'type',
  'key',
  'openai_organization',
  'test_model',
  'base_url',
  'other',
  'models',
  'group',
  'model_mapping',
  'status_code_mapping',
  'setting',
  'param_override',
  'tag',
  'auto_ban',
  'max_input_tokens',
  'rpm_limit',
  'max_concurrency',
  'remark',
  'settings',
  'header_override',
] as const satisfies ReadonlyArray<keyof UpdateChannelBody>;

function requireRootRole(request: FastifyRequest): void {
  if (currentUser(request).role < ROLE_ROOT) throw fail('auth.forbidden');
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** A full edit: the body's fields over the stored ones; blank priority or weight keeps the stored value. */
function mergedFields(stored: Channel, body: UpdateChannelBody): ChannelFieldsInput {
  const merged: ChannelFieldsInput = { ...stored };
  for (const field of FULL_EDIT_FIELDS) {
    if (body[field] !== undefined) Object.assign(merged, { [field]: body[field] });
  }
  if (!isBlank(body.priority)) merged.priority = body.priority;
  if (!isBlank(body.weight)) merged.weight = body.weight;
  return merged;
}

/** A quick edit: only status, priority and weight; blank priority or weight is ignored. */
function quickChanges(body: UpdateChannelBody): Updateable<ChannelsTable> {
  const changes: Updateable<ChannelsTable> = {};
  if (body.status !== undefined) changes.status = checkManualStatus(body.status);
  const priority = parsePriority(body.priority);
  if (priority !== undefined) changes.priority = priority;
  const weight = parseWeight(body.weight);
  if (weight !== undefined) changes.weight = weight;
  return changes;
}

export default async function writeRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { db, dbKind, bus } = app.ctx;
  const changed = (ids: readonly number[] = []) => bus.publish('channel', ids.join(','));
  const channelAnswer = { 200: Envelope(ChannelView) };
  const countAnswer = { 200: Envelope(Count) };

  async function viewOf(id: number): Promise<ChannelView> {
    const view = await findChannelView(db, id);
    if (!view) throw fail('channel.not_found');
    return view;
  }

  app.post(
    '/api/channel/',
    { onRequest: requireAdmin, schema: { body: CreateChannelBody, response: channelAnswer } },
    async (request) => {
      const { body } = request;
      let key = body.key?.trim() ?? '';
      // The console's copy sends the row it shows, which never carries the key.
      if (key === '' && body.id !== undefined) {
        requireRootRole(request);
        const source = await findChannel(db, body.id);
        if (!source) throw fail('channel.not_found');
        key = source.key;
      }
      const columns = checkChannelFields({ ...body, key }, false);
      const status =
        body.status === CHANNEL_MANUALLY_DISABLED || body.status === CHANNEL_AUTO_DISABLED ? body.status : CHANNEL_ENABLED;
      const keys = body.mode === 'batch' ? splitBatchKeys(key, columns.type === VERTEX_TYPE) : [key];
      const ids = await insertChannels(db, dbKind, { ...columns, status }, keys);
      changed(ids);
      return ok(await viewOf(ids[0] ?? 0));
    },
  );

  app.post(
    '/api/channel/copy/:id',
    { onRequest: requireRoot, schema: { params: ChannelIdParams, querystring: CopyQuery, response: channelAnswer } },
    async (request) => {
      const source = await findChannel(db, request.params.id);
      if (!source) throw fail('channel.not_found');
      const name = source.name + (request.query.suffix ?? DEFAULT_COPY_SUFFIX);
      if (name.length > NAME_MAX) throw fail('channel.name_too_long', { max: NAME_MAX });
      const { id: _id, key, created_time: _created, ...rest } = source;
      const copy = { ...rest, name, balance: 0, balance_updated_time: 0, used_quota: 0, test_time: 0, response_time: 0 };
      const ids = await insertChannels(db, dbKind, copy, [key]);
      changed(ids);
      return ok(await viewOf(ids[0] ?? 0));
    },
  );

  app.put(
    '/api/channel/',
    { onRequest: requireAdmin, schema: { body: UpdateChannelBody, response: channelAnswer } },
    async (request) => {
      const { body } = request;
      const stored = await findChannel(db, body.id);
      if (!stored) throw fail('channel.not_found');
      let changes: Updateable<ChannelsTable>;
      if (FULL_EDIT_FIELDS.some((field) => body[field] !== undefined)) {
        requireRootRole(request);
        changes = checkChannelFields(mergedFields(stored, body), true);
        const key = body.key?.trim();
        if (key) changes.key = key;
      } else {
        changes = quickChanges(body);
        if (Object.keys(changes).length === 0) return ok(await viewOf(body.id));
      }
      if (!(await updateChannel(db, body.id, changes))) throw fail('channel.not_found');
      changed([body.id]);
      return ok(await viewOf(body.id));
    },
  );

  for (const path of ['/api/channel/:id', '/api/channel/:id/']) {
    app.delete(path, { onRequest: requireRoot, schema: { params: ChannelIdParams } }, async (request) => {
      if ((await deleteChannels(db, [request.params.id])) === 0) throw fail('channel.not_found');
      changed([request.params.id]);
      return ok();
    });
  }

  app.delete('/api/channel/disabled', { onRequest: requireRoot, schema: { response: countAnswer } }, async () => {
    const count = await deleteDisabledChannels(db);
    if (count > 0) changed();
    return ok(count);
  });

  app.post(
    '/api/channel/batch',
    { onRequest: requireRoot, schema: { body: IdsBody, response: countAnswer } },
    async (request) => {
      const ids = request.body.ids ?? [];
      if (ids.length === 0) throw fail('channel.none_selected');
      const count = await deleteChannels(db, ids);
      changed(ids);
      return ok(count);
    },
  );

  app.post('/api/channel/fix', { onRequest: requireAdmin, schema: { response: countAnswer } }, async () => {
    const count = await fixAbilities(db);
    changed();
    return ok(count);
  });
}
