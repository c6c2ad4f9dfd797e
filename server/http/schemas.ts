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
