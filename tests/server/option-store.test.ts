/**
 * Internal values made once (the generated session secret): processes starting together on an empty
 * database all get the value of the one insert that committed. Each store here stands for a process.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrate, openDb, type DbHandle } from '../../server/db/index.js';
import { OptionStore } from '../../server/options/store.js';
import { createTestDatabase, forEachDatabase, type TestDatabase } from '../helpers/databases.js';

await forEachDatabase('internal values made once', (kind) => {
  let database: TestDatabase;
  const handles: DbHandle[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind, { fresh: true });
    handles.push(await openDb(database.target));
    await migrate(handles[0]!);
    // SQLite is one process; on the servers each store gets its own connection pool.
    if (kind !== 'sqlite') handles.push(await openDb(database.target), await openDb(database.target));
  });
  afterAll(async () => {
    for (const h of handles) await h.close();
    await database?.drop();
  });

  it('gives every process starting together the same value, and later ones too', async () => {
    const stores = [0, 1, 2].map((i) => new OptionStore((handles[i] ?? handles[0]!).db));
    await Promise.all(stores.map((s) => s.reload()));
    const values = await Promise.all(stores.map((s, i) => s.internalOnce('SessionSecret', () => `made-by-${i}`)));
    expect(new Set(values).size).toBe(1);
    expect(values[0]).toMatch(/^made-by-\d$/);

    const later = new OptionStore(handles[0]!.db);
    await later.reload();
    expect(await later.internalOnce('SessionSecret', () => 'made-later')).toBe(values[0]);
  });
});
