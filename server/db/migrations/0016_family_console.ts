import type { CreateTableBuilder } from 'kysely';
import type { MigrationDb } from '../types.js';
import type { DbKind } from '../dsn.js';

type Table = CreateTableBuilder<string, never>;

/**
 * What the family's console reads of a user and its daily check-in: when the user last signed in
 * (null until they do), the Discord account bound to them, and one check-in row per user and day
 * (the unique key is what makes a second check-in the same day fail, on every process).
 */
export async function up(db: MigrationDb, kind: DbKind): Promise<void> {
  await db.schema.alterTable('users').addColumn('last_login_at', 'bigint').execute();
  await db.schema
    .alterTable('users')
    .addColumn('discord_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('users_discord_id').on('users').column('discord_id').execute();

  const id = (t: Table): Table =>
    kind === 'postgres'
      ? t.addColumn('id', 'serial', (c) => c.primaryKey())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  await id(db.schema.createTable('checkins'))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('checkin_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('quota_awarded', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('checkins_user_date').unique().on('checkins').columns(['user_id', 'checkin_date']).execute();
}
