/**
 * Tags: grouping channels, editing a tag's channels at once, enabling or disabling them wholesale,
 * and the models a tag's channels serve.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Updateable } from 'kysely';
import { requireAdmin, requireRoot } from '../auth/guard.js';
import type { ChannelsTable } from '../db/types.js';
import { ok } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import {
  checkGroups,
  checkModels,
  checkTag,
  jsonObjectText,
  parseStrictPriority,
  parseStrictWeight,
  splitList,
} from './input.js';
import { findTagModelLists } from './list-repository.js';
import { setTag, setTagStatus, updateTag } from './repository.js';
import { BatchTagBody, Count, EditTagBody, TagBody, TagModelsQuery } from './schemas.js';
import { Type } from '@sinclair/typebox';
import { Envelope } from '../http/schemas.js';
import { fromBody, textOf } from '../audit/targets.js';
import type { AuditSpec } from '../audit/types.js';
import { findChannelIdsWithTag } from './list-repository.js';

function requiredTag(value: string | null | undefined): string {
  const tag = checkTag(value);
  if (tag === null) throw fail('channel.tag_required');
  return tag;
}

/** What a tag edit changes; absent or empty fields stay as they are. */
function tagChanges(body: EditTagBody, tag: string): Updateable<ChannelsTable> {
  const changes: Updateable<ChannelsTable> = {};
  if (body.priority !== undefined) changes.priority = parseStrictPriority(body.priority);
  if (body.weight !== undefined) changes.weight = parseStrictWeight(body.weight);
  const newTag = checkTag(body.new_tag);
  if (newTag !== null && newTag !== tag) changes.tag = newTag;
  const mapping = jsonObjectText(body.model_mapping, 'channel.model_mapping_invalid');
  if (mapping !== null) changes.model_mapping = mapping;
  const groups = splitList(body.groups);
  if (groups.length > 0) changes.group = checkGroups(groups);
  const models = splitList(body.models);
  if (models.length > 0) changes.models = checkModels(models);
  return changes;
}

/** A change of every channel of the body's tag (read before the change: an edit may rename the tag). */
const tagAudit = (action: string): AuditSpec => ({
  subject: 'channel',
  action,
  target: (request, ctx) => {
    const tag = checkTag(textOf(request.body, 'tag'));
    return tag === null ? [] : findChannelIdsWithTag(ctx.db, tag);
  },
  detail: (request) => ({ tag: textOf(request.body, 'tag') }),
});

export default async function tagRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { db, bus } = app.ctx;
  const changed = () => bus.publish('channel');
  const countAnswer = { 200: Envelope(Count) };

  app.post(
    '/api/channel/batch/tag',
    {
      onRequest: requireRoot,
      schema: { body: BatchTagBody, response: countAnswer },
      config: { audit: { subject: 'channel', action: 'set_tag', target: fromBody('ids') } },
    },
    async (request) => {
      const ids = request.body.ids ?? [];
      if (ids.length === 0) throw fail('channel.none_selected');
      const tag = requiredTag(request.body.tag);
      const count = await setTag(db, ids, tag);
      changed();
      return ok(count);
    },
  );

  app.put(
    '/api/channel/tag',
    { onRequest: requireRoot, schema: { body: EditTagBody, response: countAnswer }, config: { audit: tagAudit('edit_tag') } },
    async (request) => {
      const tag = requiredTag(request.body.tag);
      const changes = tagChanges(request.body, tag);
      if (Object.keys(changes).length === 0) throw fail('channel.no_change');
      const count = await updateTag(db, tag, changes);
      if (count === 0) throw fail('channel.tag_not_found');
      changed();
      return ok(count, '更新成功！');
    },
  );

  // What the family's tag editor starts its model field from: the longest model list among the
  // tag's channels (as stored, comma-separated); "" when no channel carries the tag.
  app.get(
    '/api/channel/tag/models',
    { onRequest: requireAdmin, schema: { querystring: TagModelsQuery, response: { 200: Envelope(Type.String()) } } },
    async (request) => {
      const tag = requiredTag(request.query.tag);
      let longest = '';
      let most = 0;
      for (const models of await findTagModelLists(db, tag)) {
        const count = splitList(models).length;
        if (count > most) [longest, most] = [models, count];
      }
      return ok(longest);
    },
  );

  for (const [path, enabled] of [
    ['/api/channel/tag/enabled', true],
    ['/api/channel/tag/disabled', false],
  ] as const) {
    const audit = tagAudit(enabled ? 'enable_tag' : 'disable_tag');
    app.post(
      path,
      { onRequest: requireAdmin, schema: { body: TagBody, response: countAnswer }, config: { audit } },
      async (request) => {
        const tag = requiredTag(request.body.tag);
        const count = await setTagStatus(db, tag, enabled);
        if (count === 0) throw fail('channel.tag_not_found');
        changed();
        return ok(count);
      },
    );
  }
}
