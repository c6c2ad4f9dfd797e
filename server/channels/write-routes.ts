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
  checkKeyText,
  checkManualStatus,
  parsePriority,
  parseWeight,
  splitBatchKeys,
  appendKeys,
  joinKeys,
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
import {
  ChannelIdParams,
  ChannelView,
  CopyQuery,
  Count,
  CreateChannelBody,
  FixResult,
  IdsBody,
  UpdateChannelBody,
} from './schemas.js';
import { Envelope } from '../http/schemas.js';
import { describeChannels } from './describe.js';
import { keysOfChannel } from './keys/parse.js';
import { pruneKeys } from './keys/repository.js';
import { fromBody, fromParams, idOfData, textOf } from '../audit/targets.js';
import { noteCreated, type AuditSpec } from '../audit/types.js';
import { findDisabledChannelIds } from './list-repository.js';
import { CHANNEL_AUTO_DISABLED, CHANNEL_ENABLED, CHANNEL_MANUALLY_DISABLED, keysAreJsonArray } from './types.js';

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
  'multi_key_mode',
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
    await describeChannels(app.ctx, [view]);
    return view;
  }

  app.post(
    '/api/channel/',
    {
      onRequest: requireAdmin,
      schema: { body: CreateChannelBody, response: channelAnswer },
      config: { audit: { subject: 'channel', action: 'create', created: idOfData } },
    },
    async (request) => {
      // new-api's console nests the fields under `channel`; other clients send them flat.
      const { mode = 'single', channel: nested, ...flat } = request.body;
      const body = nested ?? flat;
      let key = body.key?.trim() ?? '';
      // The console's copy sends the row it shows, which never carries the key.
      if (key === '' && body.id !== undefined) {
        requireRootRole(request);
        const source = await findChannel(db, body.id);
        if (!source) throw fail('channel.not_found');
        key = source.key;
      }
      const multiKeyMode = flat.multi_key_mode ?? body.multi_key_mode;
      const columns = checkChannelFields({ ...body, key, multi_key_mode: multiKeyMode }, false);
      const status =
        body.status === CHANNEL_MANUALLY_DISABLED || body.status === CHANNEL_AUTO_DISABLED ? body.status : CHANNEL_ENABLED;
      const vertex = keysAreJsonArray(columns.type);
      let keys = [key];
      if (mode === 'batch') keys = splitBatchKeys(key, vertex);
      else if (mode === 'multi_to_single') {
        // One channel holding every key: lines, or (Vertex AI) a JSON array of service accounts.
        keys = [joinKeys(splitBatchKeys(key, vertex), vertex)];
        columns.multi_key_mode ??= 'random';
      }
      const ids = await insertChannels(db, dbKind, { ...columns, status }, keys.map(checkKeyText));
      noteCreated(request, ids);
      changed(ids);
      return ok(await viewOf(ids[0] ?? 0));
    },
  );

  app.post(
    '/api/channel/copy/:id',
    {
      onRequest: requireRoot,
      schema: { params: ChannelIdParams, querystring: CopyQuery, response: channelAnswer },
      config: {
        audit: {
          subject: 'channel',
          action: 'copy',
          created: idOfData,
          detail: (request) => ({ source: textOf(request.params, 'id') }),
        },
      },
    },
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
    {
      onRequest: requireAdmin,
      schema: { body: UpdateChannelBody, response: channelAnswer },
      config: { audit: { subject: 'channel', action: 'update', target: fromBody() } },
    },
    async (request) => {
      const { body } = request;
      const stored = await findChannel(db, body.id);
      if (!stored) throw fail('channel.not_found');
      let changes: Updateable<ChannelsTable>;
      if (FULL_EDIT_FIELDS.some((field) => body[field] !== undefined)) {
        requireRootRole(request);
        changes = checkChannelFields(mergedFields(stored, body), true);
        const key = body.key?.trim();
        if (key)
          changes.key = checkKeyText(
            body.key_mode === 'append' ? appendKeys(stored.key, key, keysAreJsonArray(stored.type)) : key,
          );
      } else {
        changes = quickChanges(body);
        if (Object.keys(changes).length === 0) return ok(await viewOf(body.id));
      }
      if (!(await updateChannel(db, body.id, changes))) throw fail('channel.not_found');
      // Disabled keys no longer in the key field are forgotten (a key put back is enabled).
      if (changes.key !== undefined) {
        await pruneKeys(db, body.id, keysOfChannel({ ...stored, key: changes.key }).hashes);
      }
      changed([body.id]);
      return ok(await viewOf(body.id));
    },
  );

  for (const path of ['/api/channel/:id', '/api/channel/:id/']) {
    const audit = { subject: 'channel', action: 'delete', target: fromParams } as const;
    app.delete(path, { onRequest: requireRoot, schema: { params: ChannelIdParams }, config: { audit } }, async (request) => {
      if ((await deleteChannels(db, [request.params.id])) === 0) throw fail('channel.not_found');
      changed([request.params.id]);
      return ok();
    });
  }

  const deleteDisabled = {
    subject: 'channel',
    action: 'delete_disabled',
    target: (_, ctx) => findDisabledChannelIds(ctx.db),
  } satisfies AuditSpec;
  app.delete(
    '/api/channel/disabled',
    { onRequest: requireRoot, schema: { response: countAnswer }, config: { audit: deleteDisabled } },
    async () => {
      const count = await deleteDisabledChannels(db);
      if (count > 0) changed();
      return ok(count);
    },
  );

  app.post(
    '/api/channel/batch',
    {
      onRequest: requireRoot,
      schema: { body: IdsBody, response: countAnswer },
      config: { audit: { subject: 'channel', action: 'delete', target: fromBody('ids') } },
    },
    async (request) => {
      const ids = request.body.ids ?? [];
      if (ids.length === 0) throw fail('channel.none_selected');
      const count = await deleteChannels(db, ids);
      changed(ids);
      return ok(count);
    },
  );

  // The family's answer: channels rebuilt and failed. The rebuild is one transaction, so it either
  // rebuilds them all or fails as a whole (an error, not a count). Abilities are derived from the
  // channels: the repair changes no channel, so the audit says how many it rebuilt.
  const fix = {
    subject: 'channel',
    action: 'fix_abilities',
    detail: (_, data) => ({ count: Number((data as { success?: unknown } | undefined)?.success ?? 0) }),
  } satisfies AuditSpec;
  app.post(
    '/api/channel/fix',
    { onRequest: requireAdmin, schema: { response: { 200: Envelope(FixResult) } }, config: { audit: fix } },
    async () => {
      const success = await fixAbilities(db);
      changed();
      return ok({ success, fails: 0 });
    },
  );
}
