/**
 * The shape of a Claude Messages request the relay reads (`POST /v1/messages` and its
 * `count_tokens`). Open-ended: anything else a client sends passes through as it is.
 */
import { Type } from '@sinclair/typebox';

const Block = Type.Object({ type: Type.String() });
const Content = Type.Union([Type.String(), Type.Array(Block)]);

export const CLAUDE_MESSAGES = Type.Object({
  model: Type.String({ minLength: 1 }),
  messages: Type.Array(Type.Object({ role: Type.Union([Type.Literal('user'), Type.Literal('assistant')]), content: Content })),
  system: Type.Optional(Content),
  max_tokens: Type.Optional(Type.Integer({ minimum: 0 })),
  stream: Type.Optional(Type.Boolean()),
  temperature: Type.Optional(Type.Number()),
  top_p: Type.Optional(Type.Number()),
  top_k: Type.Optional(Type.Integer()),
  stop_sequences: Type.Optional(Type.Array(Type.String())),
  tools: Type.Optional(Type.Array(Type.Object({ name: Type.String(), input_schema: Type.Optional(Type.Object({})) }))),
  tool_choice: Type.Optional(Type.Object({ type: Type.String() })),
  thinking: Type.Optional(Type.Object({ type: Type.String(), budget_tokens: Type.Optional(Type.Integer({ minimum: 0 })) })),
  metadata: Type.Optional(Type.Object({})),
});
