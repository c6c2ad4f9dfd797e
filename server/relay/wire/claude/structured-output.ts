/**
 * OpenAI's `response_format` toward Claude. A JSON schema goes as Claude's own structured output
 * (`output_config.format`) on the Anthropic API for the models that have it (Claude 4.1 and later);
 * otherwise — older models, JSON mode without a schema, Bedrock and Vertex — as a forced tool whose
 * input is the answer: the tool call comes back to the client as the message's text, finish `stop`.
 *
 * Claude's structured output takes a subset of JSON Schema: every object closed
 * (`additionalProperties: false`), no numeric or length bounds. Schemas are fitted to it; a bound
 * that had to go is kept in words in the property's description.
 */
import type { StreamEvent } from '../events.js';
import type { JsonObject, OpenAIChatCompletion, OpenAIChatRequest } from '../openai/openai-types.js';
import type { Usage } from '../../../billing/pricing.js';
import type { SseEvent } from '../sse.js';
import { isObject, type ClaudeTool } from './claude-api-types.js';
import { convertClaudeResponse } from './convert-claude-response.js';
import { createClaudeStreamParser } from './claude-stream.js';

/** The forced tool's name; a tool call by this name is the answer, not a call. */
export const JSON_TOOL = 'json_response';

const UNSUPPORTED = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength'];

/** Claude 4.1 and later (Opus 4.1, Sonnet/Haiku/Opus 4.5, 4.6 …, 5): structured outputs. */
export function claudeHasStructuredOutput(model: string): boolean {
  const m = /claude-(?:opus|sonnet|haiku)-(\d+)(?:-(\d)(?!\d))?/.exec(model);
  return !!m && (Number(m[1]) > 4 || (Number(m[1]) === 4 && Number(m[2] ?? 0) >= 1));
}

export function schemaForClaude(schema: unknown): JsonObject {
  if (!isObject(schema)) return {};
  const out: JsonObject = {};
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (UNSUPPORTED.includes(key)) dropped.push(`${key} ${JSON.stringify(value)}`);
    else if (key === 'properties' && isObject(value))
      out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, schemaForClaude(v)]));
    else if ((key === 'items' || key === 'additionalProperties') && isObject(value)) out[key] = schemaForClaude(value);
    else if ((key === 'anyOf' || key === 'allOf' || key === 'oneOf') && Array.isArray(value))
      out[key === 'oneOf' ? 'anyOf' : key] = value.map(schemaForClaude);
    else if (key === '$defs' && isObject(value))
      out.$defs = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, schemaForClaude(v)]));
    else out[key] = value as JsonObject[string];
  }
  const type = out.type;
  if (type === 'object' || (Array.isArray(type) && type.includes('object')) || (type === undefined && isObject(out.properties)))
    out.additionalProperties = false;
  if (dropped.length > 0) {
    const note = `(${dropped.join(', ')})`;
    out.description = typeof out.description === 'string' ? `${out.description} ${note}` : note;
  }
  return out;
}

export interface ClaudeStructuredOutput {
  outputConfig?: { format: { type: 'json_schema'; schema: JsonObject } };
  tool?: ClaudeTool;
}

/** How a request's response_format goes to Claude, or null when it asks for none. */
export function structuredOutputFor(request: OpenAIChatRequest, model: string, native: boolean): ClaudeStructuredOutput | null {
  const format = request.response_format;
  if (format?.type !== 'json_schema' && format?.type !== 'json_object') return null;
  const schema = format.type === 'json_schema' && isObject(format.json_schema?.schema) ? format.json_schema.schema : null;
  if (schema && native && claudeHasStructuredOutput(model))
    return { outputConfig: { format: { type: 'json_schema', schema: schemaForClaude(schema) } } };
  const description =
    format.type === 'json_schema' && typeof format.json_schema.description === 'string'
      ? format.json_schema.description
      : 'Give your answer by calling this tool: its input is the answer, as JSON.';
  return { tool: { name: JSON_TOOL, description, input_schema: schema ?? { type: 'object' } } };
}

/** Whether answers to this request may carry the forced tool's call (to be turned into text). */
export function foldsJsonTool(request: Record<string, unknown> | undefined): boolean {
  const format = isObject(request?.response_format) ? request.response_format.type : undefined;
  return format === 'json_schema' || format === 'json_object';
}

/** A converted completion: the forced tool's call as the message's text. */
export function foldJsonToolAnswer(completion: OpenAIChatCompletion): OpenAIChatCompletion {
  for (const choice of completion.choices) {
    const calls = choice.message.tool_calls ?? [];
    const answer = calls.find((c) => c.function.name === JSON_TOOL);
    if (!answer) continue;
    const rest = calls.filter((c) => c !== answer);
    const text = typeof choice.message.content === 'string' ? choice.message.content : '';
    choice.message.content = text + answer.function.arguments;
    if (rest.length > 0) choice.message.tool_calls = rest;
    else {
      delete choice.message.tool_calls;
      if (choice.finish_reason === 'tool_calls') choice.finish_reason = 'stop';
    }
  }
  return completion;
}

/** The same for a stream: the forced tool's argument pieces become text, its finish `stop`. */
export function foldJsonToolStream<E>(parser: { push(event: E): StreamEvent[] }): { push(event: E): StreamEvent[] } {
  let answerCall: number | null = null;
  let otherCalls = 0;
  const fold = (event: StreamEvent): StreamEvent | null => {
    if (event.type === 'tool_call') {
      if (event.name === JSON_TOOL) answerCall = event.callIndex;
      else if (event.callIndex !== answerCall && event.name !== undefined) otherCalls++;
      if (event.callIndex !== answerCall) return event;
      return event.arguments === '' ? null : { type: 'text', index: event.index, text: event.arguments };
    }
    if (event.type === 'finish' && event.reason === 'tool_calls' && answerCall !== null && otherCalls === 0)
      return { ...event, reason: 'stop' };
    return event;
  };
  return {
    push: (event) => parser.push(event).flatMap((e) => fold(e) ?? []),
  };
}

/** A Claude answer as OpenAI chat, for the OpenAI request it was made from (Claude, Bedrock, Vertex). */
export function claudeAnswerFor(
  payload: unknown,
  model: string,
  request?: Record<string, unknown>,
): { completion: OpenAIChatCompletion; usage: Usage } {
  const { body, usage } = convertClaudeResponse(payload, { model });
  return { completion: foldsJsonTool(request) ? foldJsonToolAnswer(body) : body, usage };
}

/** A Claude stream parser for the OpenAI request the call was made from. */
export function claudeStreamFor(request?: Record<string, unknown>): { push(event: SseEvent): StreamEvent[] } {
  const parser = createClaudeStreamParser();
  return foldsJsonTool(request) ? foldJsonToolStream(parser) : parser;
}
