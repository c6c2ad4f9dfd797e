/** Where the test database servers are, and the migrated templates a run copies from. */
export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const MYSQL_ADMIN = {
  host: process.env.TEST_MYSQL_HOST ?? '127.0.0.1',
  port: Number(process.env.TEST_MYSQL_PORT ?? 3306),
  user: process.env.TEST_MYSQL_USER ?? 'root',
  password: process.env.TEST_MYSQL_PASSWORD ?? '',
};

/** Set by tests/helpers/database-templates.ts for each kind it could migrate. */
export interface DatabaseTemplates {
  /** Path of a migrated SQLite file. */
  sqlite?: string;
  /** Name of a migrated PostgreSQL database nobody connects to. */
  postgres?: string;
  /** A migrated MySQL database and its tables. */
  mysql?: { database: string; tables: string[] };
}
