import type { MigrationDb } from '../types.js';

// Multi-key channels: a channel's key field may hold several keys (one per line), used at random
// or in turn (`multi_key_mode`, null meaning random). A key that fails hard is disabled on its own:
// one row per disabled key, named by a hash of the key rather than its position, so editing the
// key list keeps the state of the keys that stay.
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.alterTable('channels').addColumn('multi_key_mode', 'varchar(16)').execute();
  await db.schema
    .createTable('channel_keys')
    .addColumn('channel_id', 'integer', (c) => c.notNull())
    .addColumn('key_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('reason', 'varchar(512)')
    .addColumn('disabled_time', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('channel_keys_pk', ['channel_id', 'key_hash'])
    .execute();
}
