import type { CreateTableBuilder } from 'kysely';
import type { MigrationDb } from '../types.js';
import type { DbKind } from '../dsn.js';

type Table = CreateTableBuilder<string, never>;

/**
 * The family's custom sign-in providers (an OAuth 2 authorization-code server, a JWT issuer, or
 * a proxy passing the identity in trusted headers) and the accounts people bound through them:
 * one binding per user and provider, one user per external account of a provider.
 */
export async function up(db: MigrationDb, kind: DbKind): Promise<void> {
  const id = (t: Table): Table =>
    kind === 'postgres'
      ? t.addColumn('id', 'serial', (c) => c.primaryKey())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  const text = (t: Table, name: string, size: number): Table =>
    t.addColumn(name, `varchar(${size})`, (c) => c.notNull().defaultTo(''));
  const flag = (t: Table, name: string): Table => t.addColumn(name, 'integer', (c) => c.notNull().defaultTo(0));

  let providers = id(db.schema.createTable('custom_oauth_providers'));
  providers = text(providers, 'name', 64);
  providers = text(providers, 'slug', 64);
  providers = text(providers, 'icon', 128);
  providers = text(providers, 'kind', 32);
  providers = flag(providers, 'enabled');
  providers = text(providers, 'client_id', 256);
  providers = text(providers, 'client_secret', 512);
  for (const name of ['authorization_endpoint', 'token_endpoint', 'user_info_endpoint', 'issuer', 'jwks_url', 'well_known'])
    providers = text(providers, name, 512);
  providers = text(providers, 'scopes', 256);
  providers = text(providers, 'audience', 256);
  providers = providers.addColumn('public_key', 'text');
  providers = text(providers, 'jwt_source', 32);
  providers = text(providers, 'jwt_header', 128);
  providers = providers.addColumn('trusted_proxy_cidrs', 'text');
  for (const name of ['external_id_header', 'username_header', 'display_name_header', 'email_header'])
    providers = text(providers, name, 128);
  for (const name of ['user_id_field', 'username_field', 'display_name_field', 'email_field'])
    providers = text(providers, name, 128);
  providers = flag(providers, 'auth_style');
  providers = flag(providers, 'auto_register');
  providers = providers
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull());
  await providers.execute();
  await db.schema.createIndex('custom_oauth_providers_slug').unique().on('custom_oauth_providers').column('slug').execute();

  await id(db.schema.createTable('user_oauth_bindings'))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('provider_id', 'integer', (c) => c.notNull())
    .addColumn('provider_user_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('user_oauth_bindings_external')
    .unique()
    .on('user_oauth_bindings')
    .columns(['provider_id', 'provider_user_id'])
    .execute();
  await db.schema
    .createIndex('user_oauth_bindings_user')
    .unique()
    .on('user_oauth_bindings')
    .columns(['user_id', 'provider_id'])
    .execute();
}
