/** Builds a process's channel health and key states, loaded and following the other processes. */
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Bus } from '../../cache/bus.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/index.js';
import type { OptionStore } from '../../options/store.js';
import { KeyStates } from '../keys/states.js';
import { CooldownBoard } from './board.js';
import { ChannelHealth } from './tracker.js';

interface SetupContext {
  db: Db;
  log: FastifyBaseLogger;
  bus: Bus;
  redis: Redis | null;
  options: OptionStore;
  config: Pick<Config, 'syncFrequency' | 'redisPrefix'>;
}

export async function createChannelHealth(ctx: SetupContext): Promise<{ health: ChannelHealth; channelKeys: KeyStates }> {
  const board = new CooldownBoard(ctx.bus, ctx.redis, ctx.config.redisPrefix, (err) =>
    ctx.log.error({ err }, 'channel health store'),
  );
  // A process that cannot read the shared cool-downs at start routes as if none were set.
  await board.load().catch((err: unknown) => ctx.log.error({ err }, 'channel health store'));
  const channelKeys = new KeyStates(ctx);
  await channelKeys.reload();
  channelKeys.follow();
  return { health: new ChannelHealth(ctx.options, board), channelKeys };
}
