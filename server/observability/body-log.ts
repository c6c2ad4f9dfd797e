/**
 * Body logs: for the calls they are on for (every call, a listed group's, or a token whose owner
 * opted in), the request as received and the answer as sent, each capped at BodyLogMaxBytes and
 * with its credentials masked, stored in the log database once the answer has closed. Off (the
 * default), nothing is kept and nothing is written.
 */
import type { FastifyRequest } from 'fastify';
import type { GatewayContext } from '../context.js';
import type { RelayCaller, RelayInput } from '../relay/types.js';
import type { AnswerTap } from './answer-tap.js';
import { receivedText } from '../http/json-body.js';
import { redactBody } from '../http/log-redaction.js';
import { insertLogBody } from '../logs/bodies-repository.js';

let groupsText = '';
let groups = new Set<string>();

function listedGroups(value: string): Set<string> {
  if (value !== groupsText) {
    groupsText = value;
    groups = new Set(
      value
        .split(',')
        .map((g) => g.trim())
        .filter(Boolean),
    );
  }
  return groups;
}

/** How many bytes of each body to keep for this call; 0 when body logs are off for it. */
export function bodyLogLimit(ctx: GatewayContext, request: FastifyRequest, caller: RelayCaller): number {
  const on =
    ctx.options.bool('BodyLogEnabled') ||
    request.caller?.token.log_bodies === true ||
    listedGroups(ctx.options.string('BodyLogGroups')).has(caller.group);
  return on ? ctx.options.number('BodyLogMaxBytes') : 0;
}

function capped(text: string, limit: number): { text: string; truncated: boolean } {
  if (text.length <= limit / 4 || Buffer.byteLength(text) <= limit) return { text, truncated: false };
  return { text: Buffer.from(text).subarray(0, limit).toString('utf8'), truncated: true };
}

function requestText(input: RelayInput): string {
  if (input.body) return receivedText(input.body) ?? JSON.stringify(input.body);
  // Multipart uploads (audio, image edits) are files: their size is kept, not their bytes.
  return `[${input.contentType || 'body'}: ${input.raw?.length ?? 0} bytes]`;
}

/** PostgreSQL refuses NUL in text. */
const storable = (text: string) => (text.includes('\u0000') ? text.replaceAll('\u0000', '') : text);

export function storeBodies(
  ctx: GatewayContext,
  request: FastifyRequest,
  caller: RelayCaller,
  input: RelayInput,
  tap: AnswerTap,
  limit: number,
): void {
  const sent = capped(requestText(input), limit);
  const answer = tap.text();
  insertLogBody(ctx.logDb, {
    request_id: request.id,
    user_id: caller.userId,
    token_id: caller.tokenId,
    created_at: Math.floor(Date.now() / 1000),
    request_body: storable(redactBody(sent.text)),
    response_body: storable(redactBody(answer.text)),
    request_truncated: sent.truncated ? 1 : 0,
    response_truncated: answer.truncated ? 1 : 0,
  }).catch((err: unknown) => ctx.log.warn({ err }, 'body log not stored'));
}
