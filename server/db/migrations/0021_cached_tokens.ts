import type { MigrationDb } from '../types.js';

// Input tokens and the part of them read from the provider's prompt cache, per hour in quota_data
// and its roll-up per model and channel (what channel statistics read), so the cache-hit rate of a
// channel is a sum over the roll-up. Older hours read 0 of both. One column per statement: SQLite
// adds columns one at a time.
export async function up(db: MigrationDb): Promise<void> {
  for (const table of ['quota_data', 'quota_data_models']) {
    for (const name of ['prompt_tokens', 'cached_tokens']) {
      await db.schema
        .alterTable(table)
        .addColumn(name, 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
    }
  }
}
