import { EventEmitter } from 'node:events';
import type { Db } from '../db/index.js';
import { OPTION_REGISTRY, type OptionDef, type OptionKey } from './registry.js';
import { inRange } from './values.js';
import { isUniqueViolation } from '../db/errors.js';

/**
 * Options held in memory: read on the hot path without touching the database, written through to
 * the `options` table. `reload()` picks up writes made by other gateway processes.
 */
export class OptionStore extends EventEmitter {
  private values = new Map<string, string>();
  private parsed = new Map<string, { raw: string; value: unknown }>();
  /** Number of the latest reload started, and of the one applied last. */
  private started = 0;
  private applied = 0;

  constructor(private readonly db: Db) {
    super();
    for (const [key, def] of Object.entries(OPTION_REGISTRY)) this.values.set(key, def.default);
  }

  /**
   * Reads every option again. Reloads overlap when changes arrive in quick succession; one that
   * started earlier but finished later would put back values read before the last change, so a
   * later-started reload always wins.
   */
  async reload(): Promise<void> {
    const run = ++this.started;
    const rows = await this.db.selectFrom('options').select(['key', 'value']).execute();
    if (run < this.applied) return;
    this.applied = run;
    for (const row of rows) {
      const before = this.values.get(row.key);
      const value = row.value ?? '';
      this.values.set(row.key, value);
      if (before !== value) this.emit('change', row.key, value);
    }
  }

  /** The raw stored string (or the default). */
  raw(key: OptionKey): string {
    return this.values.get(key) ?? OPTION_REGISTRY[key].default;
  }

  string(key: OptionKey): string {
    return this.raw(key);
  }

  bool(key: OptionKey): boolean {
    return this.raw(key) === 'true';
  }

  /** The number stored, or the default when what is stored is none in the option's range (saved before the rules). */
  number(key: OptionKey): number {
    const def: OptionDef = OPTION_REGISTRY[key];
    const n = Number(this.raw(key));
    return inRange(def, n) ? n : Number(def.default);
  }

  /**
   * The parsed value, parsed once per stored string (the relay reads price maps on every request).
   * The object is frozen: it is shared by every caller.
   */
  json<T>(key: OptionKey): T {
    const raw = this.raw(key);
    const cached = this.parsed.get(key);
    if (cached && cached.raw === raw) return cached.value as T;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      value = JSON.parse(OPTION_REGISTRY[key].default);
    }
    deepFreeze(value);
    this.parsed.set(key, { raw, value });
    return value as T;
  }

  /** Every registered option as stored strings (defaults filled in). */
  entries(): Array<[OptionKey, string]> {
    return (Object.keys(OPTION_REGISTRY) as OptionKey[]).map((key) => [key, this.raw(key)]);
  }

  async set(key: OptionKey, value: string): Promise<void> {
    await this.write(key, value);
  }

  /** Values outside the registry that the server keeps for itself (never listed). */
  internal(key: string): string | undefined {
    return this.values.get(key);
  }

  async setInternal(key: string, value: string): Promise<void> {
    await this.write(key, value);
  }

  /** Deletes the row of a key outside the registry (a setting of an older console, once migrated). */
  async removeInternal(key: string): Promise<void> {
    await this.db.deleteFrom('options').where('key', '=', key).execute();
    this.values.delete(key);
    this.emit('write', key);
  }

  /**
   * The internal value of `key`, made by `make()` and stored when there is none yet. Processes
   * starting together on an empty database all end up with the value of the one insert that
   * committed, never each with its own.
   */
  async internalOnce(key: string, make: () => string): Promise<string> {
    const known = this.values.get(key);
    if (known) return known;
    await this.claimInternal(this.db, key, make());
    await this.reload();
    const stored = this.values.get(key);
    if (stored) return stored;
    // A row left empty by hand: fill it.
    const value = make();
    await this.write(key, value);
    return value;
  }

  /**
   * Inserts an internal value that is written once, in the caller's transaction `trx`: false when
   * the key already has a row. The table's key decides between concurrent callers on every
   * process: one insert commits, the others fail — a caller given false must abandon its
   * transaction (on PostgreSQL the failed insert has already spoilt it). Memory
   * follows with `setInternal` once the transaction has committed.
   */
  async claimInternal(trx: Db, key: string, value: string): Promise<boolean> {
    try {
      await trx.insertInto('options').values({ key, value }).execute();
      return true;
    } catch (err) {
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  private async write(key: string, value: string): Promise<void> {
    const updated = await this.db.updateTable('options').set({ value }).where('key', '=', key).executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      try {
        await this.db.insertInto('options').values({ key, value }).execute();
      } catch {
        // Another process inserted the key meanwhile: overwrite it.
        await this.db.updateTable('options').set({ value }).where('key', '=', key).execute();
      }
    }
    this.values.set(key, value);
    this.emit('change', key, value);
    // Local writes only: tells other processes to reload.
    this.emit('write', key);
  }
}

function deepFreeze(value: unknown): void {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
}

/**
 * The value of `key` in the options table of `db` (another database than the store's, such as
 * LOG_SQL_DSN's), stored as `value` first when the key has no row: the first caller's value wins.
 */
export async function claimOption(db: Db, key: string, value: string): Promise<string | undefined> {
  try {
    await db.insertInto('options').values({ key, value }).execute();
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
  const row = await db.selectFrom('options').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value ?? undefined;
}
