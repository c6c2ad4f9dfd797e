/**
 * Request and answer shapes of /api/prefill_group: the family's named lists of models, tags or
 * endpoints that an admin picks from to fill a channel's fields.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Envelope } from '../http/schemas.js';

export const PREFILL_TYPES = ['model', 'tag', 'endpoint'] as const;
export const PrefillType = Type.Union(PREFILL_TYPES.map((t) => Type.Literal(t)));
export type PrefillType = Static<typeof PrefillType>;

export const PrefillGroupView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  type: Type.String(),
  items: Type.Array(Type.String()),
  description: Type.String(),
  created_time: Type.Number(),
  updated_time: Type.Number(),
});
export type PrefillGroupView = Static<typeof PrefillGroupView>;

/** GET: every group, or those of one `type`, most recently changed first. */
export const PrefillListQuery = Type.Object({ type: Type.Optional(Type.String({ maxLength: 32 })) });
export type PrefillListQuery = Static<typeof PrefillListQuery>;

/**
 * `items`: an array of names, or (as some family clients send it) that array as JSON text. Checked
 * by the route (a union here would let the validator's type coercion turn text into a one-item list).
 */
const Items = Type.Unknown();

const Fields = {
  name: Type.Optional(Type.String({ maxLength: 64 })),
  type: Type.Optional(Type.String({ maxLength: 32 })),
  items: Type.Optional(Items),
  description: Type.Optional(Type.String({ maxLength: 255 })),
};

export const CreatePrefillBody = Type.Object(Fields);
export type CreatePrefillBody = Static<typeof CreatePrefillBody>;

/** PUT: `id` and the fields to change (absent ones keep their value). */
export const UpdatePrefillBody = Type.Object({ id: Type.Integer(), ...Fields });
export type UpdatePrefillBody = Static<typeof UpdatePrefillBody>;

export const PrefillIdParams = Type.Object({ id: Type.Integer() });

export const PrefillGroupAnswer = Envelope(PrefillGroupView);
export const PrefillListAnswer = Envelope(Type.Array(PrefillGroupView));
