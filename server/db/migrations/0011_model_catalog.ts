import { sql, type CreateTableBuilder } from 'kysely';
import type { MigrationDb } from '../types.js';
import type { DbKind } from '../dsn.js';

type Table = CreateTableBuilder<string, never>;

// The model catalogue the pricing page and the admins' model management show: vendors (who makes a
// model) and model metadata (description, tags, icon, vendor, endpoints …), each matched to served
// model names by its name rule. Names are unique and compared exactly: model names are
// case-sensitive everywhere else in the gateway, so MySQL gets a binary collation for them.
export async function up(db: MigrationDb, kind: DbKind): Promise<void> {
  const id = (t: Table): Table =>
    kind === 'postgres'
      ? t.addColumn('id', 'serial', (c) => c.primaryKey())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  const name = kind === 'mysql' ? sql`varchar(128) character set utf8mb4 collate utf8mb4_bin` : sql`varchar(128)`;

  await id(db.schema.createTable('vendors'))
    .addColumn('name', name, (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('icon', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_time', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_time', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('vendors_name').unique().on('vendors').column('name').execute();

  await id(db.schema.createTable('models'))
    .addColumn('model_name', name, (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('icon', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('tags', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('vendor_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('endpoints', 'text')
    .addColumn('context_length', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_output_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('knowledge_cutoff', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('release_date', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('parameter_count', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('input_modalities', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('output_modalities', 'varchar(128)', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('sync_official', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('name_rule', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_time', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_time', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('models_model_name').unique().on('models').column('model_name').execute();
  await db.schema.createIndex('models_vendor_id').on('models').column('vendor_id').execute();
}
