import type { CreateTableBuilder } from 'kysely';
import type { MigrationDb } from '../types.js';
import type { DbKind } from '../dsn.js';

type Table = CreateTableBuilder<string, never>;

// Second factors of console sign-in: a TOTP secret per user (a row with enabled 0 is an enrolment
// not yet confirmed), its one-time backup codes stored as digests, and WebAuthn passkeys (several
// per user; credential ids are base64url, at most 512 characters, unique across users).
export async function up(db: MigrationDb, kind: DbKind): Promise<void> {
  const id = (t: Table): Table =>
    kind === 'postgres'
      ? t.addColumn('id', 'serial', (c) => c.primaryKey())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());

  await id(db.schema.createTable('two_fa'))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('secret', 'varchar(64)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_used_step', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('two_fa_user_id').unique().on('two_fa').column('user_id').execute();

  await id(db.schema.createTable('two_fa_backup_codes'))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('two_fa_backup_codes_user_hash')
    .on('two_fa_backup_codes')
    .columns(['user_id', 'code_hash'])
    .execute();

  await id(db.schema.createTable('passkeys'))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('credential_id', 'varchar(512)', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('sign_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('transports', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('backed_up', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('name', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_used_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('passkeys_credential_id').unique().on('passkeys').column('credential_id').execute();
  await db.schema.createIndex('passkeys_user_id').on('passkeys').column('user_id').execute();
}
