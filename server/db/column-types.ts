/** The column shapes every table type is written in. */
import type { ColumnType, Generated } from 'kysely';

export type Id = Generated<number>;
/** A column with a database default: optional on insert. */
export type D<T> = ColumnType<T, T | undefined, T>;
/** 0 or 1 */
export type Flag = number;
