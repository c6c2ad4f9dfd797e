/**
 * Channel tests: one minimal real request to a channel's upstream through its provider, timed.
 * The result is recorded on the channel (test_time always, response_time on success) and drives
 * the automatic status changes: a failure the relay would disable for, or an answer slower than
 * ChannelDisableThreshold, sets status 3; a pass re-enables a status-3 channel when
 * AutomaticEnableChannelEnabled is on. Manual disables (2) are never tested by test-all. A
 * stream-only channel is tested with a stream (test-stream.ts); a multi-key channel with its first
 * enabled key, which alone is disabled or enabled by the result. The result also decides a cooling
 * channel's health (server/channels/health/), as a half-open call would.
 *
 * Response times are not announced on the bus: the relay never reads them from its cache, and a
 * test-all over many channels would otherwise make every gateway process reload its whole channel
 * index once per channel. Status changes go through setChannelStatus, which does announce them.
 */
import type { GatewayContext } from '../context.js';
import { nowSeconds } from '../db/index.js';
import type { Channel } from '../db/types.js';
import type { Endpoint } from '../relay/endpoints.js';
import { shouldDisable } from '../relay/call/report-outcome.js';
import { mapModel } from '../relay/call/map-model.js';
import { providerFor } from '../relay/providers/registry.js';
import { readText } from '../relay/call/call-upstream.js';
import { adapterFor, errorMessageOf, sendUpstream } from '../relay/call/exchange-with-upstream.js';
import type { RelayInput } from '../relay/types.js';
import type { ProviderDefinition } from '../relay/providers/types.js';
import { splitList } from './input.js';
import { findTestableChannelIds } from './list-repository.js';
import { findChannel, recordTestResult } from './repository.js';
import { setChannelStatus } from './status.js';
import { CHANNEL_AUTO_DISABLED, CHANNEL_ENABLED } from './types.js';
import { isChannelFailure } from './health/tracker.js';
import { chosenKeyOf, withTestKey } from './keys/picker.js';
import { disableFailedKey, enableChannelKeys } from './keys/disable.js';
import { declaredStreamOnly, saysStreamOnly, streamProblem } from './test-stream.js';

export const TEST_MSG = {
  unsupported: '该渠道类型暂不支持测试',
  noModel: '渠道未配置可测试的模型',
  started: '已开始测试所有渠道',
  passed: '测试通过',
} as const;

/** Longest a test waits for the whole answer. */
const TEST_TIMEOUT_MS = 60_000;
/** Channels tested at once by test-all. */
const TEST_ALL_CONCURRENCY = 4;
const REASON_MAX = 500;

export interface ChannelTestResult {
  /** False when nothing was sent upstream (unsupported type, no model). */
  attempted: boolean;
  success: boolean;
  message: string;
  /** Seconds the upstream took to answer in full; 0 when nothing was sent. */
  seconds: number;
}

/** The query's model, else the channel's test model, else the first of its models. */
export function testModelOf(channel: Pick<Channel, 'test_model' | 'models'>, requested?: string): string | undefined {
  const chosen = requested?.trim() || channel.test_model?.trim();
  return chosen || splitList(channel.models)[0];
}

function isEmbeddingModel(model: string): boolean {
  return /embed|^bge-|^m3e/i.test(model);
}

/** Reasoning models refuse `max_tokens`. */
function isReasoningModel(model: string): boolean {
  return /^(o\d|gpt-5)/i.test(model);
}

/** The smallest request that proves the channel answers for `model`. */
export function testRequest(model: string): { endpoint: Endpoint; body: Record<string, unknown> } {
  if (isEmbeddingModel(model)) return { endpoint: 'embeddings', body: { model, input: 'hi' } };
  const limit = isReasoningModel(model) ? { max_completion_tokens: 1 } : { max_tokens: 1 };
  return { endpoint: 'chat.completions', body: { model, messages: [{ role: 'user', content: 'hi' }], ...limit } };
}

interface Outcome {
  ok: boolean;
  /** Upstream HTTP status; 0 when no answer came (connection failure, timeout). */
  status: number;
  message: string;
}

/**
 * A 2xx answer counts only when it is the JSON the endpoint promises, not an error or a web page.
 * Providers with a protocol of their own have their answer converted first.
 */
function judge(provider: ProviderDefinition, input: RelayInput, status: number, text: string): Outcome {
  const { endpoint } = input;
  if (status < 200 || status >= 300) return { ok: false, status, message: errorMessageOf(provider, input, text, status) };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, status, message: `上游返回的不是 JSON：${text.slice(0, 200)}` };
  }
  const adapter = adapterFor(provider, endpoint);
  if (adapter) parsed = adapter.answer(parsed, input.model, input.body ?? undefined).completion;
  const answer = (parsed ?? {}) as { error?: unknown; choices?: unknown; data?: unknown };
  if (answer.error) return { ok: false, status, message: errorMessageOf(provider, input, text, status) };
  const expected = endpoint === 'embeddings' ? answer.data : answer.choices;
  if (!Array.isArray(expected)) return { ok: false, status, message: `上游返回格式不正确：${text.slice(0, 200)}` };
  return { ok: true, status, message: '' };
}

async function record(ctx: GatewayContext, id: number, success: boolean, ms: number): Promise<void> {
  const changes = success ? { test_time: nowSeconds(), response_time: Math.max(1, Math.round(ms)) } : { test_time: nowSeconds() };
  await recordTestResult(ctx.db, id, changes);
}

const reason = (text: string) => text.slice(0, REASON_MAX);

/** Channels this process found to answer only streams, per gateway (several run in one process in tests). */
const detectedStreamOnly = new WeakMap<GatewayContext, Set<number>>();

function streamOnlyChannels(ctx: GatewayContext): Set<number> {
  let found = detectedStreamOnly.get(ctx);
  if (!found) detectedStreamOnly.set(ctx, (found = new Set()));
  return found;
}

/**
 * Tests one channel (the full row, as stored now), records the result and applies the automatic
 * status rules. `signal` cancels it (gateway shutdown); a cancelled test records nothing.
 */
export async function testChannel(
  ctx: GatewayContext,
  stored: Channel,
  requestedModel?: string,
  signal?: AbortSignal,
): Promise<ChannelTestResult> {
  const skipped = (message: string): ChannelTestResult => ({ attempted: false, success: false, message, seconds: 0 });
  if (!providerFor(stored.type)) return skipped(TEST_MSG.unsupported);
  const model = testModelOf(stored, requestedModel);
  if (!model) return skipped(TEST_MSG.noModel);
  const { endpoint, body } = testRequest(model);
  const mapped = mapModel(stored.model_mapping, model);
  if (!mapped.ok) return skipped(mapped.message);
  const provider = providerFor(stored.type, mapped.model);
  if (!provider?.supports(endpoint)) return skipped(TEST_MSG.unsupported);

  const channel = withTestKey(ctx, stored);
  const key = chosenKeyOf(channel);
  let started = performance.now();
  /** One test call, plain or streamed; null when cancelled. */
  const send = async (stream: boolean): Promise<Outcome | null> => {
    const sent = stream ? { ...body, stream: true } : body;
    const input: RelayInput = {
      endpoint,
      body: sent,
      raw: null,
      contentType: 'application/json',
      model,
      stream,
      client: 'openai',
    };
    const timeout = AbortSignal.timeout(TEST_TIMEOUT_MS);
    started = performance.now();
    try {
      const res = await sendUpstream(
        ctx,
        provider,
        channel,
        input,
        mapped.model,
        signal ? AbortSignal.any([timeout, signal]) : timeout,
      );
      const text = await readText(res);
      if (!stream || res.statusCode < 200 || res.statusCode >= 300) return judge(provider, input, res.statusCode, text);
      const problem = streamProblem(text);
      return { ok: problem === null, status: res.statusCode, message: problem ?? '' };
    } catch (err) {
      if (signal?.aborted) return null;
      const message = timeout.aborted ? `上游在 ${TEST_TIMEOUT_MS / 1000} 秒内未应答` : `上游连接失败：${(err as Error).message}`;
      return { ok: false, status: 0, message };
    }
  };
  const chat = endpoint === 'chat.completions';
  const known = streamOnlyChannels(ctx);
  const streamOnly = chat && (declaredStreamOnly(channel) || known.has(channel.id));
  let outcome = await send(streamOnly);
  if (outcome && !outcome.ok && chat && !streamOnly && saysStreamOnly(outcome.message)) {
    known.add(channel.id);
    outcome = await send(true);
  }
  const ms = performance.now() - started;
  const seconds = Math.round(ms) / 1000;
  if (!outcome || signal?.aborted) return skipped('测试已取消');

  const threshold = ctx.options.number('ChannelDisableThreshold');
  const tooSlow =
    ctx.options.bool('AutomaticDisableChannelEnabled') && channel.auto_ban === 1 && threshold > 0 && seconds > threshold;
  const slowMessage = `响应时间 ${seconds.toFixed(2)} 秒，超过阈值 ${threshold} 秒`;
  if (outcome.ok && tooSlow) outcome = { ok: false, status: outcome.status, message: slowMessage };

  await record(ctx, channel.id, outcome.ok, ms);
  // A test decides a cooling channel's fate as a half-open call would.
  const verdict = outcome.ok ? 'ok' : isChannelFailure(outcome.status) ? 'fail' : 'neutral';
  ctx.health.record(channel.id, key?.hash ?? null, verdict, { message: reason(outcome.message), decisive: true });
  if (outcome.ok) {
    if (channel.status === CHANNEL_AUTO_DISABLED && ctx.options.bool('AutomaticEnableChannelEnabled')) {
      if (key) await enableChannelKeys(ctx, stored, [key.hash]);
      else await setChannelStatus(ctx, channel.id, CHANNEL_ENABLED, TEST_MSG.passed);
    }
  } else if (channel.status === CHANNEL_ENABLED) {
    const byError = outcome.status > 0 && shouldDisable(ctx, channel, outcome.status, outcome.message);
    const why = reason(`${outcome.status}: ${outcome.message}`);
    if (byError && key) await disableFailedKey(ctx, key, why);
    else if (byError) await setChannelStatus(ctx, channel.id, CHANNEL_AUTO_DISABLED, why);
    else if (tooSlow) await setChannelStatus(ctx, channel.id, CHANNEL_AUTO_DISABLED, reason(slowMessage));
  }
  return { attempted: true, success: outcome.ok, message: outcome.message, seconds };
}

// ---- Test-all ----

interface TestAllRun {
  done: Promise<void>;
  abort: AbortController;
}

/** One run at a time per gateway process. Keyed by context, so several gateways in one process (tests) stay apart. */
const runs = new WeakMap<GatewayContext, TestAllRun>();

async function runTestAll(ctx: GatewayContext, signal: AbortSignal, onError: (err: unknown) => void): Promise<void> {
  const queue = await findTestableChannelIds(ctx.db);
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined && !signal.aborted; id = queue.shift()) {
      try {
        // Read each row just before its test: its status may have changed since the run began.
        const channel = await findChannel(ctx.db, id);
        if (!channel || (channel.status !== CHANNEL_ENABLED && channel.status !== CHANNEL_AUTO_DISABLED)) continue;
        await testChannel(ctx, channel, undefined, signal);
      } catch (err) {
        if (!signal.aborted) onError(err);
      }
    }
  };
  await Promise.all(Array.from({ length: TEST_ALL_CONCURRENCY }, worker));
}

/**
 * Starts testing every enabled and auto-disabled channel in the background. Returns false (and
 * starts nothing) when a run is already going in this process.
 */
export function startTestAll(
  ctx: GatewayContext,
  onError: (err: unknown) => void = (err) => ctx.log.error({ err }, 'channel test-all failed'),
): boolean {
  if (runs.has(ctx)) return false;
  const abort = new AbortController();
  const done = runTestAll(ctx, abort.signal, onError)
    .catch((err: unknown) => {
      if (!abort.signal.aborted) onError(err);
    })
    .finally(() => runs.delete(ctx));
  runs.set(ctx, { done, abort });
  return true;
}

/** The running test-all's completion, if one is running. */
export function testAllRunning(ctx: GatewayContext): Promise<void> | undefined {
  return runs.get(ctx)?.done;
}

/** Cancels a running test-all and waits until it has stopped writing. */
export async function stopTestAll(ctx: GatewayContext): Promise<void> {
  const run = runs.get(ctx);
  if (!run) return;
  run.abort.abort();
  await run.done;
}
