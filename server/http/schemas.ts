/** Schema builders every route module shares: the envelope, pages, nullable columns. */
import { Type, type TSchema } from '@sinclair/typebox';

/**
 * What every console answer carries: `success` and `message`, and on a refusal its stable `code`
 * and the values its message was filled from (`params`), which the console translates by.
 */
export const EnvelopeFields = {
  success: Type.Boolean(),
  message: Type.String(),
  code: Type.Optional(Type.String()),
  params: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]))),
};

/** `{success, message, data}`; `data` is optional because failures carry none. */
export const Envelope = <T extends TSchema>(data: T) => Type.Object({ ...EnvelopeFields, data: Type.Optional(data) });

/** A page of a list: `{items, total, page, page_size}` (`p` is 1-based). */
export const Page = <T extends TSchema>(item: T) =>
  Type.Object({ items: Type.Array(item), total: Type.Integer(), page: Type.Integer(), page_size: Type.Integer() });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A 32-bit integer column's range: what a console route's unbounded integer is held to. */
export const INT32_MIN = -2147483648;
export const INT32_MAX = 2147483647;

/**
 * An integer stored in a bigint column (quota, timestamps, priority): held to the safe-integer
 * range, where JavaScript numbers are still exact.
 */
export const Int53 = (options: { minimum?: number; maximum?: number } = {}) =>
  Type.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER, ...options });

/** A row as answers carry it: a nullable column is never null there (text answers "", numbers 0). */
export type Answered<Row> = { [K in keyof Row]: Exclude<Row[K], null> };
