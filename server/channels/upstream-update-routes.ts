/**
 * The family's upstream model-update calls: detect one channel or every enabled channel that opted
 * in (admins: detection only records what it found), and apply a choice or every pending change
 * (root, as every other change of a channel's models). Answers keep the family's shapes.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { requireAdmin, requireRoot } from '../auth/guard.js';
import { fromBody } from '../audit/targets.js';
import type { AuditSpec } from '../audit/types.js';
import type { GatewayContext } from '../context.js';
import { ok } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import { findChannel } from './repository.js';
import { applyChannel, checkedChannels, detectChannel, type Detected } from './upstream-check.js';
import { checkEnabled, parseSettings, pendingOf } from './upstream-updates.js';

const NameList = Type.Optional(Type.Array(Type.String({ maxLength: 255 }), { maxItems: 5000 }));
const IdBody = Type.Object({ id: Type.Integer({ minimum: 1 }) });
const ApplyBody = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  add_models: NameList,
  remove_models: NameList,
  ignore_models: NameList,
});

const everyChecked = (_: unknown, ctx: GatewayContext) => checkedChannels(ctx).then((list) => list.map((c) => c.id));

export default async function upstreamUpdateRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { ctx } = app;
  const audit = (action: string, target: AuditSpec['target']): { audit: AuditSpec } => ({
    audit: { subject: 'channel', action, target },
  });

  app.post(
    '/api/channel/upstream_updates/detect',
    { onRequest: requireAdmin, schema: { body: IdBody }, config: audit('upstream_detect', fromBody()) },
    async (request) => {
      const channel = await findChannel(ctx.db, request.body.id);
      if (!channel) throw fail('channel.not_found');
      if (!checkEnabled(parseSettings(channel.settings))) throw fail('channel.upstream_check_disabled');
      return ok(await detectChannel(ctx, channel));
    },
  );

  app.post(
    '/api/channel/upstream_updates/detect_all',
    { onRequest: requireAdmin, config: audit('upstream_detect', everyChecked) },
    async () => {
      const results: Detected[] = [];
      const failed: number[] = [];
      for (const channel of await checkedChannels(ctx)) {
        try {
          results.push(await detectChannel(ctx, channel));
        } catch {
          failed.push(channel.id);
        }
      }
      return ok({
        processed_channels: results.length,
        failed_channel_ids: failed,
        detected_add_models: results.reduce((n, r) => n + r.add_models.length, 0),
        detected_remove_models: results.reduce((n, r) => n + r.remove_models.length, 0),
        channel_detected_results: results,
      });
    },
  );

  app.post(
    '/api/channel/upstream_updates/apply',
    { onRequest: requireRoot, schema: { body: ApplyBody }, config: audit('upstream_apply', fromBody()) },
    async (request) => {
      const { id, ...selection } = request.body;
      const applied = await applyChannel(ctx, id, selection);
      return ok({
        id,
        added_models: applied.added,
        removed_models: applied.removed,
        ignored_models: applied.ignored,
        remaining_models: applied.remaining,
        remaining_remove_models: applied.remainingRemove,
        models: applied.models.join(','),
        settings: JSON.stringify(applied.settings),
      });
    },
  );

  app.post(
    '/api/channel/upstream_updates/apply_all',
    { onRequest: requireRoot, config: audit('upstream_apply', everyChecked) },
    async () => {
      const results = [];
      const failed: number[] = [];
      for (const channel of await checkedChannels(ctx)) {
        const pending = pendingOf(parseSettings(channel.settings));
        if (pending.add.length === 0 && pending.remove.length === 0) continue;
        try {
          const applied = await applyChannel(ctx, channel.id, { add_models: pending.add, remove_models: pending.remove });
          results.push({
            channel_id: channel.id,
            channel_name: channel.name,
            added_models: applied.added,
            removed_models: applied.removed,
            remaining_models: applied.remaining,
            remaining_remove_models: applied.remainingRemove,
          });
        } catch {
          failed.push(channel.id);
        }
      }
      return ok({
        processed_channels: results.length,
        added_models: results.reduce((n, r) => n + r.added_models.length, 0),
        removed_models: results.reduce((n, r) => n + r.removed_models.length, 0),
        failed_channel_ids: failed,
        results,
      });
    },
  );
}
