/**
 * What the relay needs of a token's owner, held in memory: status, group, role and settings.
 * Balances are not trusted from here (debits are conditional in the database); `quota` is only a
 * hint for skipping the reservation on large balances, kept exact by this process's own writes. Entries expire after a minute and are dropped at
 * once on the bus topic 'user' (payload: the user id).
 */
import type { Bus } from '../cache/bus.js';
import type { Db } from '../db/index.js';
import { findUserColumns } from './repository.js';

export const USER_TOPIC = 'user';

export interface CachedUser {
  id: number;
  username: string;
  role: number;
  status: number;
  group: string;
  quota: number;
  deleted: boolean;
  acceptUnsetModelRatio: boolean;
  /** Relayed requests per day; 0 = no limit. */
  rpdLimit: number;
}

const TTL_MS = 60_000;

export function publishUserChange(bus: Bus, userId: number): void {
  bus.publish(USER_TOPIC, String(userId));
}

export class UserCache {
  private entries = new Map<number, { user: CachedUser | null; expires: number }>();
  private pending = new Map<number, Promise<CachedUser | null>>();

  constructor(
    private readonly db: Db,
    bus: Bus,
  ) {
    bus.on(USER_TOPIC, (payload) => {
      if (payload === '') {
        this.entries.clear();
        this.pending.clear();
      } else {
        this.entries.delete(Number(payload));
        this.pending.delete(Number(payload));
      }
    });
  }

  async get(id: number): Promise<CachedUser | null> {
    const hit = this.entries.get(id);
    if (hit && hit.expires > Date.now()) return hit.user;
    const running = this.pending.get(id);
    if (running) return running;
    const load = this.load(id);
    this.pending.set(id, load);
    try {
      const user = await load;
      // A change announced while the row was read (a ban, say) removed our pending load: its answer
      // may predate the change, so the callers waiting get it but it is not kept for a minute.
      if (this.pending.get(id) === load) this.entries.set(id, { user, expires: Date.now() + TTL_MS });
      return user;
    } finally {
      if (this.pending.get(id) === load) this.pending.delete(id);
    }
  }

  /** The cached user when its entry is fresh, without loading it. */
  peek(id: number): CachedUser | null | undefined {
    const hit = this.entries.get(id);
    return hit && hit.expires > Date.now() ? hit.user : undefined;
  }

  /** Sets the cached balance hint to what a write of this process left; returns the hint it replaced. */
  setBalance(id: number, quota: number): number | undefined {
    const user = this.entries.get(id)?.user;
    if (!user) return undefined;
    const before = user.quota;
    user.quota = quota;
    return before;
  }

  private async load(id: number): Promise<CachedUser | null> {
    const row = await findUserColumns(this.db, id, [
      'id',
      'username',
      'role',
      'status',
      'group',
      'quota',
      'deleted_at',
      'setting',
      'rpd_limit',
    ]);
    let user: CachedUser | null = null;
    if (row) {
      let accept = false;
      try {
        accept = Boolean(
          (JSON.parse(row.setting || '{}') as { accept_unset_model_ratio_model?: boolean }).accept_unset_model_ratio_model,
        );
      } catch {
        accept = false;
      }
      user = {
        id: row.id,
        username: row.username,
        role: row.role,
        status: row.status,
        group: row.group,
        quota: row.quota,
        deleted: row.deleted_at !== null,
        acceptUnsetModelRatio: accept,
        rpdLimit: row.rpd_limit,
      };
    }
    return user;
  }
}
