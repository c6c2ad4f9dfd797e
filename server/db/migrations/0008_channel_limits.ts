import type { MigrationDb } from '../types.js';

// Per-channel limits (requests per minute, calls in flight), the channel fields the console of this
// family sends (an admin's remark, other settings as JSON text, extra upstream headers), and the
// per-token limit of tokens per minute. 0 means no limit. One column per statement: SQLite adds
// columns one at a time.
export async function up(db: MigrationDb): Promise<void> {
  const channelColumns = [
    ['rpm_limit', 'integer', true],
    ['max_concurrency', 'integer', true],
    ['remark', 'varchar(255)', false],
    ['settings', 'text', false],
    ['header_override', 'text', false],
  ] as const;
  for (const [name, type, counter] of channelColumns) {
    await db.schema
      .alterTable('channels')
      .addColumn(name, type, (c) => (counter ? c.notNull().defaultTo(0) : c))
      .execute();
  }
  await db.schema
    .alterTable('tokens')
    .addColumn('tpm_limit', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
