import type { MigrationDb } from '../types.js';

// Log lists filtered by group (the console's group filter) without a time range.
export async function up(db: MigrationDb): Promise<void> {
  await db.schema.createIndex('logs_group_created').on('logs').columns(['group', 'created_at']).execute();
}
