/**
 * POST /api/channel/multi_key/manage (new-api's path and body): an admin reads, disables or enables
 * the keys of a multi-key channel by position. Every action answers the channel as the list shows
 * it, its `keys` included (positions, last characters and states; never a key).
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { fromBody, textOf } from '../../audit/targets.js';
import { requireAdmin, requireRoot } from '../../auth/guard.js';
import { numericIdOnly } from '../../http/numeric-id.js';
import { ok } from '../../http/envelope.js';
import { fail } from '../../http/errors.js';
import { Envelope } from '../../http/schemas.js';
import { describeChannels } from '../describe.js';
import { findChannel, findChannelView } from '../repository.js';
import { ChannelView } from '../schemas.js';
import { disableKeyByHand, enableChannelKeys } from './disable.js';
import { keysOfChannel } from './parse.js';

export const ManageKeysBody = Type.Object({
  channel_id: Type.Integer(),
  action: Type.Union([
    Type.Literal('get_key_status'),
    Type.Literal('enable_key'),
    Type.Literal('disable_key'),
    Type.Literal('enable_all_keys'),
  ]),
  /** The key's position in the key field (0 first); needed by enable_key and disable_key. */
  key_index: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type ManageKeysBody = Static<typeof ManageKeysBody>;

const DISABLED_BY_HAND = '管理员手动禁用';

export default async function keyRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { ctx } = app;

  app.post(
    '/api/channel/multi_key/manage',
    {
      onRequest: requireAdmin,
      schema: { body: ManageKeysBody, response: { 200: Envelope(ChannelView) } },
      config: {
        audit: {
          subject: 'channel',
          action: (request) => textOf(request.body, 'action'),
          target: fromBody('channel_id'),
          detail: (request) => ({ key_index: textOf(request.body, 'key_index') }),
        },
      },
    },
    async (request) => {
      const { channel_id: id, action, key_index: index } = request.body;
      const channel = await findChannel(ctx.db, id);
      if (!channel) throw fail('channel.not_found');
      const { hashes } = keysOfChannel(channel);
      const hashAt = () => {
        const hash = index === undefined ? undefined : hashes[index];
        if (hash === undefined || hashes.length < 2) throw fail('channel.key_not_found', { index: (index ?? 0) + 1 });
        return hash;
      };
      if (action === 'enable_key') await enableChannelKeys(ctx, channel, [hashAt()]);
      else if (action === 'disable_key') await disableKeyByHand(ctx, channel, hashAt(), DISABLED_BY_HAND);
      else if (action === 'enable_all_keys') await enableChannelKeys(ctx, channel, null);
      const view = await findChannelView(ctx.db, id);
      if (!view) throw fail('channel.not_found');
      await describeChannels(ctx, [view]);
      return ok(view);
    },
  );

  /**
   * POST /api/channel/:id/key, the family's "show key" (root, behind its secure verification):
   * refused with a stable code for every channel. Keys stay write-only here — an answer that can
   * carry a key would make one stolen root session (or one logged answer) leak every upstream
   * account, while the key list above already tells keys apart by their last characters.
   */
  app.post(
    '/api/channel/:id/key',
    {
      onRequest: [numericIdOnly, requireRoot],
      schema: { params: Type.Object({ id: Type.Integer() }) },
      config: { audit: { exempt: 'always refused; reads and changes nothing' } },
    },
    async () => {
      throw fail('channel.key_write_only');
    },
  );
}
