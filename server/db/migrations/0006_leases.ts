import type { MigrationDb } from '../types.js';

// Leases: a named duty (the background jobs) held by one gateway process until `expires_at`
// (milliseconds), renewed by its holder and taken over by another once it lapses.
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('leases')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('holder', 'varchar(48)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}
