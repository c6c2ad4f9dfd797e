/**
 * The relay's StreamEvents as OpenAI Responses server-sent events, for `/v1/responses` clients
 * served by channels that answer in another protocol (chat completions, Claude, Gemini).
 *
 * Each event is `event: <type>` + `data: {type, sequence_number, …}`; sequence numbers count from 0.
 * The stream opens with `response.created` and `response.in_progress`; each output item (reasoning,
 * message, function call) is announced with `response.output_item.added`, filled with deltas and
 * closed with its `…done` events and `response.output_item.done` before the next one begins; the
 * stream ends with `response.completed` (or `response.incomplete` when cut short by the token limit
 * or a filter, `response.failed` after an error) carrying the whole Response with its usage.
 */
import type { Usage } from '../../../billing/pricing.js';
import type { FinishReason, StreamEvent } from '../events.js';
import {
  itemId,
  newResponseId,
  responseShell,
  statusFor,
  toResponsesUsage,
  type ResponseContext,
  type ResponsesOutputItem,
  type ResponsesResponse,
} from './responses-answer.js';
import { callName, namespacedNames } from './namespace-tools.js';

type Open =
  | { kind: 'reasoning'; index: number; id: string; text: string; signature: string | null }
  | { kind: 'message'; index: number; id: string; text: string }
  | { kind: 'call'; index: number; id: string; callIndex: number };

export interface ResponsesSseSerializer {
  /** The SSE text for one event (empty when it changes nothing the client sees yet). */
  push(event: StreamEvent): string;
  /** Closes the open item and sends the final `response.completed` (or incomplete / failed). */
  end(): string;
}

export function createResponsesSseSerializer(ctx: ResponseContext): ResponsesSseSerializer {
  let sequence = 0;
  let shell: ResponsesResponse | null = null;
  const output: ResponsesOutputItem[] = [];
  const calls = new Map<number, Extract<ResponsesOutputItem, { type: 'function_call' }>>();
  const names = namespacedNames(ctx.request?.tools);
  let open: Open | null = null;
  let reason: FinishReason | null = null;
  let usage: Usage | null = null;
  let failure: string | null = null;

  const emit = (type: string, payload: Record<string, unknown>): string =>
    `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...payload })}\n\n`;

  const begin = (created?: number): string => {
    if (shell) return '';
    shell = responseShell(ctx, ctx.id ?? newResponseId(), ctx.createdAt ?? created ?? Math.floor(Date.now() / 1000));
    return emit('response.created', { response: shell }) + emit('response.in_progress', { response: shell });
  };

  const add = (item: ResponsesOutputItem): string => {
    output.push(item);
    return emit('response.output_item.added', { output_index: output.length - 1, item });
  };

  const itemStatus = (): 'completed' | 'incomplete' =>
    reason === 'length' || reason === 'content_filter' ? 'incomplete' : 'completed';

  const close = (): string => {
    const current = open;
    if (!current) return '';
    open = null;
    const at = { item_id: current.id, output_index: current.index };
    if (current.kind === 'reasoning') {
      const part = { type: 'summary_text' as const, text: current.text };
      const item: ResponsesOutputItem = { type: 'reasoning', id: current.id, summary: [part] };
      if (current.signature !== null) item.encrypted_content = current.signature;
      output[current.index] = item;
      return (
        emit('response.reasoning_summary_text.done', { ...at, summary_index: 0, text: current.text }) +
        emit('response.reasoning_summary_part.done', { ...at, summary_index: 0, part }) +
        emit('response.output_item.done', { output_index: current.index, item })
      );
    }
    if (current.kind === 'message') {
      const part = { type: 'output_text' as const, text: current.text, annotations: [] };
      const item: ResponsesOutputItem = {
        type: 'message',
        id: current.id,
        status: itemStatus(),
        role: 'assistant',
        content: [part],
      };
      output[current.index] = item;
      return (
        emit('response.output_text.done', { ...at, content_index: 0, text: current.text, logprobs: [] }) +
        emit('response.content_part.done', { ...at, content_index: 0, part }) +
        emit('response.output_item.done', { output_index: current.index, item })
      );
    }
    const call = calls.get(current.callIndex)!;
    const item = { ...call, status: itemStatus() };
    output[current.index] = item;
    return (
      emit('response.function_call_arguments.done', { ...at, arguments: call.arguments }) +
      emit('response.output_item.done', { output_index: current.index, item })
    );
  };

  const reasoning = (text: string, signature: string | undefined): string => {
    let out = '';
    if (open?.kind !== 'reasoning' || open.signature !== null) {
      // A signature alone (Gemini's on a text or call part) belongs to no reasoning item here.
      if (text === '') return '';
      out += close();
      const id = itemId('rs', shell!.id, output.length);
      open = { kind: 'reasoning', index: output.length, id, text: '', signature: null };
      out += add({ type: 'reasoning', id, summary: [] });
      out += emit('response.reasoning_summary_part.added', {
        item_id: id,
        output_index: open.index,
        summary_index: 0,
        part: { type: 'summary_text', text: '' },
      });
    }
    if (text !== '') {
      open.text += text;
      out += emit('response.reasoning_summary_text.delta', {
        item_id: open.id,
        output_index: open.index,
        summary_index: 0,
        delta: text,
      });
    }
    if (signature !== undefined && signature !== '') open.signature = signature;
    return out;
  };

  const text = (delta: string): string => {
    let out = '';
    if (open?.kind !== 'message') {
      out += close();
      const id = itemId('msg', shell!.id, output.length);
      open = { kind: 'message', index: output.length, id, text: '' };
      out += add({ type: 'message', id, status: 'in_progress', role: 'assistant', content: [] });
      out += emit('response.content_part.added', {
        item_id: id,
        output_index: open.index,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      });
    }
    open.text += delta;
    return (
      out +
      emit('response.output_text.delta', { item_id: open.id, output_index: open.index, content_index: 0, delta, logprobs: [] })
    );
  };

  const toolCall = (event: Extract<StreamEvent, { type: 'tool_call' }>): string => {
    let out = '';
    let call = calls.get(event.callIndex);
    if (!call) {
      out += close();
      const id = itemId('fc', shell!.id, output.length);
      const callId = event.id || `call_${id.slice(3)}`;
      const name = callName(event.name ?? '', names);
      call = { type: 'function_call', id, status: 'in_progress', call_id: callId, ...name, arguments: '' };
      calls.set(event.callIndex, call);
      open = { kind: 'call', index: output.length, id, callIndex: event.callIndex };
      out += add({ ...call });
    }
    if (event.arguments === '') return out;
    call.arguments += event.arguments;
    // Pieces of a call already closed (calls interleaved upstream) only reach the final response.
    if (open?.kind !== 'call' || open.callIndex !== event.callIndex) return out;
    return (
      out + emit('response.function_call_arguments.delta', { item_id: open.id, output_index: open.index, delta: event.arguments })
    );
  };

  return {
    push(event) {
      if (event.type === 'start') return begin(event.created);
      let out = begin();
      switch (event.type) {
        case 'reasoning':
          if (event.index === 0) out += reasoning(event.text, event.signature);
          break;
        case 'text':
          if (event.index === 0 && event.text !== '') out += text(event.text);
          break;
        case 'tool_call':
          if (event.index === 0) out += toolCall(event);
          break;
        case 'usage':
          usage = event.usage;
          break;
        case 'finish':
          if (event.index === 0) reason = event.reason;
          break;
        case 'error':
          failure = event.message;
          out += emit('error', { code: 'upstream_error', message: event.message, param: null });
          break;
      }
      return out;
    },
    end() {
      let out = begin();
      out += close();
      const final: ResponsesResponse = {
        ...shell!,
        ...statusFor(reason),
        output,
        usage: usage ? toResponsesUsage(usage) : null,
      };
      if (failure !== null) {
        return (
          out +
          emit('response.failed', { response: { ...final, status: 'failed', error: { code: 'server_error', message: failure } } })
        );
      }
      return out + emit(final.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: final });
    },
  };
}
