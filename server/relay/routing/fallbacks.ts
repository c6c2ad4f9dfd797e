/**
 * Fallback chains across models (option `relay.model_fallbacks`): when a model cannot be served,
 * the call is tried on the next model of its chain — after the model's own channels and priority
 * tiers are exhausted, or at once when the upstream's error is of a class the rule lists (`5xx`,
 * `429`, `context_length`). Only before the first byte reaches the client: an answer already begun
 * is never replaced. A model the caller may not use (its token's model limits, no channel of its
 * group, no price) is skipped, never served.
 *
 * The option maps a model to its chain, a list of models or rules (the first rule whose `groups`
 * hold the caller's group applies; a rule without `groups` applies to every group):
 *   {"claude-opus-4": ["claude-sonnet-4", "gpt-5"],
 *    "gpt-5": [{"models": ["gpt-5-mini"], "on": ["5xx", "429"], "groups": ["vip"]}]}
 */
import type { GatewayContext } from '../../context.js';
import type { ServerResponse } from 'node:http';
import { AppError } from '../../http/errors.js';
import { priceFor } from '../metering/charge.js';
import type { RelayCaller, RelayInput } from '../types.js';
import { parseFallbacks, type FallbackRule, type FallbackTrigger } from './fallback-rules.js';

let memo: { source: unknown; rules: Map<string, FallbackRule[]> } | null = null;

function rulesOf(ctx: GatewayContext): Map<string, FallbackRule[]> {
  const source = ctx.options.json<unknown>('relay.model_fallbacks');
  if (memo !== null && memo.source === source) return memo.rules;
  const rules = parseFallbacks(source) ?? new Map<string, FallbackRule[]>();
  memo = { source, rules };
  return rules;
}

/** The upstream error's class, as the rules name them. */
export function triggerOf(status: number, message: string): FallbackTrigger | null {
  if (status === 429) return '429';
  if (status >= 500) return '5xx';
  if (status === 400 || status === 413) {
    if (/context.?length|context window|maximum context|prompt is too long|too many tokens|input is too long/i.test(message))
      return 'context_length';
  }
  return null;
}

/** Failures worth another model: the model's own channels could not serve it. */
function exhausted(error: AppError): boolean {
  if (error.code === 'model_not_found' || error.code === 'upstream_connection_error' || error.code === 'channel_saturated')
    return true;
  if (error.code !== 'upstream_error') return false;
  const s = error.status;
  return s >= 500 || s === 401 || s === 403 || s === 404 || s === 408 || s === 429;
}

/** One call's way down its chain. */
export class FallbackChain {
  /** The models still to try, in order. */
  private readonly rest: string[];
  private readonly on: readonly FallbackTrigger[];
  /** Set by `skipsTiers`: the last upstream error is of a listed class. */
  private listed = false;

  constructor(
    private readonly ctx: GatewayContext,
    private readonly caller: RelayCaller,
    readonly asked: string,
  ) {
    const rule = rulesOf(ctx)
      .get(asked)
      ?.find((r) => r.groups === null || r.groups.includes(caller.group));
    this.rest = rule ? rule.models.filter((m) => m !== asked && this.usable(m)) : [];
    this.on = rule?.on ?? [];
  }

  /** A model the caller may use and its group has a channel for. */
  private usable(model: string): boolean {
    const limits = this.caller.modelLimits;
    if (limits && !limits.has(model)) return false;
    if (this.caller.pinnedChannelId !== null || this.ctx.channels.candidates(this.caller.group, model).length === 0) return false;
    try {
      priceFor(this.ctx, this.caller, model);
      return true;
    } catch {
      return false;
    }
  }

  get hasNext(): boolean {
    return this.rest.length > 0;
  }

  /** Whether an upstream error should end this model's tries at once, for the next model. */
  skipsTiers(status: number, message: string): boolean {
    const trigger = triggerOf(status, message);
    this.listed = this.hasNext && trigger !== null && this.on.includes(trigger);
    return this.listed;
  }

  /** Whether a model's final failure goes on to the next model (rather than to the client). */
  takes(error: AppError): boolean {
    return this.hasNext && (this.listed || exhausted(error));
  }

  /** The input for the next model, or undefined at the end of the chain. */
  next(input: RelayInput): RelayInput | undefined {
    this.listed = false;
    const model = this.rest.shift();
    if (model === undefined) return undefined;
    const body = input.body && 'model' in input.body ? { ...input.body, model } : input.body;
    return { ...input, model, body, requestedModel: this.asked };
  }
}

export const SERVED_MODEL_HEADER = 'x-gateway-served-model';
export const REQUESTED_MODEL_HEADER = 'x-gateway-requested-model';

/**
 * Serves `input` with `serveOne`, going down the chain while a model fails before its answer
 * began. The answer names the model that served it (and, after a fallback, the one asked for).
 */
export async function serveChain(
  out: ServerResponse,
  chain: FallbackChain,
  input: RelayInput,
  serveOne: (input: RelayInput) => Promise<void>,
): Promise<void> {
  let current = input;
  for (;;) {
    out.setHeader(SERVED_MODEL_HEADER, current.model);
    if (current.requestedModel) out.setHeader(REQUESTED_MODEL_HEADER, current.requestedModel);
    try {
      await serveOne(current);
      return;
    } catch (err) {
      const next = !out.headersSent && err instanceof AppError && chain.takes(err) ? chain.next(current) : undefined;
      if (!next) {
        if (!out.headersSent) for (const h of [SERVED_MODEL_HEADER, REQUESTED_MODEL_HEADER]) out.removeHeader(h);
        throw err;
      }
      current = next;
    }
  }
}
