import type { MigrationDb } from '../types.js';
import type { DbKind } from '../dsn.js';

// Frozen once released: later schema changes go into new numbered files.
//
// Redemption codes get an expiry (`expired_time`, Unix seconds; 0 never expires), as the family's
// consoles read and write it. Prefill groups are the family's named lists (of models, tags or
// endpoints) an admin picks from when filling a channel's fields; `items` holds a JSON array.
export async function up(db: MigrationDb, kind: DbKind): Promise<void> {
  await db.schema
    .alterTable('redemptions')
    .addColumn('expired_time', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();

  const table = db.schema.createTable('prefill_groups');
  await (
    kind === 'postgres'
      ? table.addColumn('id', 'serial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('items', 'text', (c) => c.notNull())
    .addColumn('description', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_time', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_time', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('prefill_groups_name').unique().on('prefill_groups').column('name').execute();
  await db.schema.createIndex('prefill_groups_type').on('prefill_groups').column('type').execute();
}
