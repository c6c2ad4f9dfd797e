import type { MigrationDb } from '../types.js';

// Request limits of a token (calls in flight, requests per minute and per day) and of a user
// (requests per day), counted by the relay before a call reaches a channel. 0 means no limit.
// One column per statement: SQLite adds columns one at a time.
export async function up(db: MigrationDb): Promise<void> {
  for (const name of ['max_concurrency', 'rpm_limit', 'rpd_limit']) {
    await db.schema
      .alterTable('tokens')
      .addColumn(name, 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  await db.schema
    .alterTable('users')
    .addColumn('rpd_limit', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
