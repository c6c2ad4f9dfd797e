import type { MigrationDb } from '../types.js';

// Third-party logins find the user bound to a provider account by its id (server/oauth/). Plain
// indexes: the columns default to '' for everyone not bound, so they cannot be unique.
const COLUMNS = ['github_id', 'oidc_id', 'wechat_id', 'telegram_id', 'linux_do_id'] as const;

export async function up(db: MigrationDb): Promise<void> {
  for (const column of COLUMNS) {
    await db.schema.createIndex(`users_${column}`).on('users').column(column).execute();
  }
}
