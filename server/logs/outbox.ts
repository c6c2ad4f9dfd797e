/**
 * With LOG_SQL_DSN the main database's `logs` table only holds rows until the shipper moves them
 * (server/logs/shipper.ts): nothing searches it, so its secondary indexes only cost — every row
 * would be added to eight indexes and taken out again (on SQLite some 70 µs a row, holding the one
 * writer the relay's billing waits for). They are dropped while the table is an outbox and built
 * again, from the rows still there, when the gateway starts without LOG_SQL_DSN; the option
 * LogsOutbox remembers which is the case.
 */
import type { Db } from '../db/index.js';
import type { DbKind } from '../db/dsn.js';
import type { OptionStore } from '../options/store.js';
import { createLogSearchIndex, LOG_SEARCH_INDEXES } from './search-indexes.js';

const FLAG = 'LogsOutbox';

/** Another process starting at the same time may have dropped or built an index first. */
const raced = (err: unknown) => /exist|duplicate|check that (column\/)?key exists|can't drop/i.test(String(err));

/**
 * Makes the main database's `logs` an outbox (`outbox`: LOG_SQL_DSN is set) or a searchable table
 * again. Runs on a master process at start, before it serves.
 */
export async function setLogsOutbox(db: Db, kind: DbKind, options: OptionStore, outbox: boolean): Promise<void> {
  const now = options.internal(FLAG) === '1';
  if (now === outbox) return;
  for (const index of LOG_SEARCH_INDEXES) {
    try {
      const drop = db.schema.dropIndex(index.name);
      // MySQL names the table of an index to drop; the others refuse it.
      if (outbox) await (kind === 'mysql' ? drop.on('logs') : drop).execute();
      else await createLogSearchIndex(db, kind, index);
    } catch (err) {
      if (!raced(err)) throw err;
    }
  }
  await options.setInternal(FLAG, outbox ? '1' : '0');
}
