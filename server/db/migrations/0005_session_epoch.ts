import type { MigrationDb } from '../types.js';

// A session cookie carries the epoch its user had when it was issued; raising the epoch (logout,
// a new password, a ban, deregistration) makes every earlier cookie of that user invalid at once,
// on every gateway process, since the guards read the user's row on each request.
export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('session_epoch', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
