/**
 * The shapes of OpenAI-format request bodies the relay reads, per endpoint: what must be there and
 * of which type. Open-ended: anything else a client sends passes through as it is.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import type { Endpoint } from '../../endpoints.js';

const Model = Type.String({ minLength: 1 });
const Count = Type.Integer({ minimum: 0 });
const Part = Type.Object({ type: Type.String() });
const Text = Type.Union([Type.String(), Type.Array(Part), Type.Null()]);

const ToolCall = Type.Object({
  function: Type.Object({ name: Type.String(), arguments: Type.Optional(Type.String()) }),
});

const Message = Type.Object({
  role: Type.String(),
  content: Type.Optional(Text),
  name: Type.Optional(Type.String()),
  tool_calls: Type.Optional(Type.Array(ToolCall)),
  tool_call_id: Type.Optional(Type.String()),
});

const Tool = Type.Object({
  type: Type.String(),
  function: Type.Optional(Type.Object({ name: Type.String(), parameters: Type.Optional(Type.Object({})) })),
});

const Sampling = {
  stream: Type.Optional(Type.Boolean()),
  max_tokens: Type.Optional(Type.Union([Count, Type.Null()])),
  temperature: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  top_p: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
  n: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
  stop: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String()), Type.Null()])),
};

const Chat = Type.Object({
  model: Model,
  messages: Type.Array(Message, { minItems: 1 }),
  ...Sampling,
  max_completion_tokens: Type.Optional(Type.Union([Count, Type.Null()])),
  stream_options: Type.Optional(Type.Union([Type.Object({ include_usage: Type.Optional(Type.Boolean()) }), Type.Null()])),
  tools: Type.Optional(Type.Array(Tool)),
  tool_choice: Type.Optional(Type.Union([Type.String(), Type.Object({})])),
  response_format: Type.Optional(Type.Object({ type: Type.String() })),
});

const Completions = Type.Object({
  model: Model,
  prompt: Type.Union([Type.String(), Type.Array(Type.Unknown())]),
  ...Sampling,
});

const Embeddings = Type.Object({
  model: Model,
  input: Type.Union([Type.String(), Type.Array(Type.Unknown(), { minItems: 1 })]),
  dimensions: Type.Optional(Type.Integer({ minimum: 1 })),
});

const Moderations = Type.Object({ model: Model, input: Type.Union([Type.String(), Type.Array(Type.Unknown())]) });

const Images = Type.Object({
  model: Model,
  prompt: Type.String(),
  n: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
});

const Speech = Type.Object({ model: Model, input: Type.String(), voice: Type.Optional(Type.String()) });

const Rerank = Type.Object({ model: Model, query: Type.String(), documents: Type.Array(Type.Unknown()) });

const Responses = Type.Object({
  model: Model,
  input: Type.Optional(Type.Union([Type.String(), Type.Array(Type.Object({}))])),
  instructions: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  stream: Type.Optional(Type.Boolean()),
  max_output_tokens: Type.Optional(Type.Union([Count, Type.Null()])),
  tools: Type.Optional(Type.Array(Type.Object({ type: Type.String() }))),
});

/** The JSON endpoints' shapes; multipart endpoints (uploads) are read by their form instead. */
export const OPENAI_SCHEMAS: Partial<Record<Endpoint, TSchema>> = {
  'chat.completions': Chat,
  completions: Completions,
  embeddings: Embeddings,
  moderations: Moderations,
  'images.generations': Images,
  'audio.speech': Speech,
  rerank: Rerank,
  responses: Responses,
};
