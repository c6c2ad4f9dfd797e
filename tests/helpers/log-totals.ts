/**
 * What log_totals must hold: the totals of the log rows, recomputed here from the rows alone (the
 * scopes spelled out again, not taken from server/logs/totals.ts), compared row for row.
 */
import { expect } from 'vitest';
import type { Db } from '../../server/db/index.js';

/** Scope code, the column whose value is the scope's `dim` (none: all rows), kept per model. */
const SCOPES = [
  [0, null, true],
  [1, 'user_id', true],
  [2, 'username', false],
  [3, 'token_name', false],
  [4, 'channel_id', true],
  [5, 'group', false],
] as const;

type Total = {
  scope: number;
  dim: string;
  type: number;
  bucket: number;
  model_name: string;
  count: number;
  quota: number;
  tokens: number;
};

const key = (t: Total) => `${t.scope}|${t.dim}|${t.type}|${t.bucket}|${t.model_name}`;

/** `rowsDb`: where the log rows are (LOG_SQL_DSN's database), when not with their totals in `db`. */
export async function expectTotalsMatchRows(db: Db, rowsDb: Db = db): Promise<void> {
  const rows = await rowsDb
    .selectFrom('logs')
    .select([
      'user_id',
      'username',
      'token_name',
      'channel_id',
      'group',
      'model_name',
      'type',
      'created_at',
      'quota',
      'prompt_tokens',
      'completion_tokens',
    ])
    .execute();
  const expected = new Map<string, Total>();
  for (const row of rows) {
    for (const [scope, column, perModel] of SCOPES) {
      const t: Total = {
        scope,
        dim: column ? String(row[column]) : '',
        type: row.type,
        bucket: Math.floor(Number(row.created_at) / 3600) * 3600,
        model_name: perModel ? row.model_name : '',
        count: 1,
        quota: Number(row.quota),
        tokens: row.prompt_tokens + row.completion_tokens,
      };
      const seen = expected.get(key(t));
      if (seen) {
        seen.count += 1;
        seen.quota += t.quota;
        seen.tokens += t.tokens;
      } else expected.set(key(t), t);
    }
  }
  const stored = (await db.selectFrom('log_totals').selectAll().execute()).map((t) => ({
    ...t,
    bucket: Number(t.bucket),
    count: Number(t.count),
    quota: Number(t.quota),
    tokens: Number(t.tokens),
  }));
  const sorted = (list: Total[]) => list.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  expect(rows.length).toBeGreaterThan(0);
  expect(sorted(stored)).toEqual(sorted([...expected.values()]));
}
