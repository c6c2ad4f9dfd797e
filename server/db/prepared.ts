/**
 * Statements the hot path runs thousands of times, compiled by Kysely once per database and shape,
 * then run with fresh parameters: compiling is the dearest part of a small query, and a multi-row
 * insert recompiled for every batch costs more than the database's own work. The SQL is still
 * Kysely's, with every value a parameter.
 *
 * A statement is built with named placeholders (`p('amount')`); compiling it once with those as the
 * values shows where each name lands among the parameters.
 */
import { CompiledQuery, type Compilable, type Kysely, type QueryResult, type Transaction } from 'kysely';
import type { Database } from './types.js';

type Executor = Kysely<Database> | Transaction<Database>;
type Placeholder = (name: string) => never;
type Values = Record<string, unknown>;

interface Shape {
  sql: string;
  /** The placeholder name of each parameter, in order. */
  names: string[];
}

const MARK = '\u0000p:';

function compileShape(build: (p: Placeholder) => Compilable): Shape {
  const compiled = build(((name: string) => `${MARK}${name}`) as Placeholder).compile();
  const names = compiled.parameters.map((value) => {
    if (typeof value !== 'string' || !value.startsWith(MARK)) {
      throw new Error(`prepared statement has a parameter without a placeholder: ${String(value)}`);
    }
    return value.slice(MARK.length);
  });
  return { sql: compiled.sql, names };
}

export class PreparedStatements {
  private readonly shapes = new Map<string, Shape>();
  /** For multi-row inserts: the row and column of each parameter. */
  private readonly cells = new Map<string, Array<[number, string]>>();

  /**
   * Runs the statement `key` (built by `build` the first time) with `values` for its placeholders.
   * The key must name one shape: a builder whose SQL depends on anything but the values needs a key
   * of its own (e.g. the row count of a multi-row insert).
   */
  run<R = unknown>(
    executor: Executor,
    key: string,
    build: (p: Placeholder) => Compilable,
    values: Values | ((name: string) => unknown),
  ): Promise<QueryResult<R>> {
    let shape = this.shapes.get(key);
    if (!shape) this.shapes.set(key, (shape = compileShape(build)));
    const get = typeof values === 'function' ? values : (name: string) => values[name];
    const parameters = shape.names.map(get);
    return executor.executeQuery<R>(CompiledQuery.raw(shape.sql, parameters));
  }

  /** Inserts `rows` (all naming `columns`, in any order) into `table` in one statement. */
  insertRows(executor: Executor, table: keyof Database, columns: readonly string[], rows: ReadonlyArray<Values>) {
    const key = `insert:${table}:${columns.join(',')}:${rows.length}`;
    let shape = this.shapes.get(key);
    if (!shape) {
      shape = compileShape((p) =>
        (executor as Kysely<Database>)
          .insertInto(table)
          .values(rows.map((_, i) => Object.fromEntries(columns.map((c) => [c, p(`${i}.${c}`)]))) as never),
      );
      this.shapes.set(key, shape);
      this.cells.set(
        key,
        shape.names.map((name) => [Number(name.slice(0, name.indexOf('.'))), name.slice(name.indexOf('.') + 1)]),
      );
    }
    const parameters = this.cells.get(key)!.map(([row, column]) => rows[row]![column]);
    return executor.executeQuery(CompiledQuery.raw(shape.sql, parameters));
  }
}
