/**
 * The disabled keys of multi-key channels, in memory, so choosing a key reads no database. Reloaded
 * on the bus topics `channel-keys` (a key disabled or enabled) and `channel`, and every
 * SYNC_FREQUENCY seconds, like the channel index.
 */
import type { Bus } from '../../cache/bus.js';
import { followReloads } from '../../cache/follow.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/index.js';
import { findDisabledKeys, type DisabledKey } from './repository.js';

export const KEYS_TOPIC = 'channel-keys';

const NONE: ReadonlyMap<string, DisabledKey> = new Map();

export class KeyStates {
  private disabled = new Map<number, Map<string, DisabledKey>>();
  /** This process's turn counter per channel in polling mode. */
  private readonly turns = new Map<number, number>();
  private started = 0;
  private applied = 0;
  /** Stops following changes (set by `follow`). */
  private stop: () => void = () => undefined;

  constructor(private readonly ctx: { db: Db; bus: Bus; config: Pick<Config, 'syncFrequency'> }) {}

  /** Reads the disabled keys again. A reload that started later always wins. */
  async reload(): Promise<void> {
    const run = ++this.started;
    const rows = await findDisabledKeys(this.ctx.db);
    if (run < this.applied) return;
    const next = new Map<number, Map<string, DisabledKey>>();
    for (const row of rows) {
      let keys = next.get(row.channel_id);
      if (!keys) next.set(row.channel_id, (keys = new Map()));
      keys.set(row.key_hash, row);
    }
    this.applied = run;
    this.disabled = next;
  }

  /** The channel's disabled keys by hash. */
  disabledOf(channelId: number): ReadonlyMap<string, DisabledKey> {
    return this.disabled.get(channelId) ?? NONE;
  }

  /** The next turn of a polling channel (0, 1, 2 …) in this process. */
  nextTurn(channelId: number): number {
    const turn = this.turns.get(channelId) ?? 0;
    this.turns.set(channelId, (turn + 1) % Number.MAX_SAFE_INTEGER);
    return turn;
  }

  follow(): void {
    this.stop = followReloads(this.ctx.bus, [KEYS_TOPIC, 'channel'], this.ctx.config.syncFrequency, () => this.reload());
  }

  close(): void {
    this.stop();
  }
}
