/**
 * Channel balances from OpenAI's old billing endpoints, which OpenAI-style upstreams and relays
 * still answer: `…/v1/dashboard/billing/subscription` (hard_limit_usd) and
 * `…/v1/dashboard/billing/usage?start_date&end_date` (total_usage, in cents).
 * Balance = hard_limit_usd − total_usage / 100, stored in USD with the time it was read.
 */
import { request } from 'undici';
import type { GatewayContext } from '../context.js';
import { nowSeconds } from '../db/index.js';
import type { Channel } from '../db/types.js';
import { fail } from '../http/errors.js';
import type { UpstreamTarget } from '../relay/call/call-upstream.js';
import { readText, upstreamAgent, upstreamErrorMessage } from '../relay/call/call-upstream.js';
import { openAIStyleRoot, type ChannelAddress } from './fetch-models.js';
import { findEnabledChannels } from './list-repository.js';
import { setChannelBalance } from './repository.js';

const BALANCE_TIMEOUT_MS = 15_000;
const BALANCE_CONCURRENCY = 4;
/** The usage window asked for: OpenAI accepts at most 100 days. */
const USAGE_DAYS = 100;
const DAY_MS = 86_400_000;

export interface BalanceResult {
  balance: number;
  balance_updated_time: number;
}

/** The billing root (`…/v1`) of a channel, or undefined when its type has no such endpoints. */
export function billingRoot(channel: ChannelAddress): UpstreamTarget | undefined {
  const root = openAIStyleRoot(channel);
  if (!root || !new URL(root.url).pathname.endsWith('/v1')) return undefined;
  return root;
}

async function getJson(url: string, headers: Record<string, string>): Promise<Record<string, unknown>> {
  let status: number;
  let text: string;
  try {
    const res = await request(url, {
      method: 'GET',
      headers: { ...headers, accept: 'application/json' },
      dispatcher: upstreamAgent,
      signal: AbortSignal.timeout(BALANCE_TIMEOUT_MS),
    });
    status = res.statusCode;
    text = await readText(res);
  } catch (err) {
    throw fail('channel.balance_failed', { detail: (err as Error).message });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  const body = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  if (status < 200 || status >= 300 || !body || body.error)
    throw fail('channel.balance_failed', { detail: upstreamErrorMessage(text, status) });
  return body;
}

function numberField(body: Record<string, unknown>, field: string): number {
  const value = body[field];
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw fail('channel.balance_failed', { detail: `上游答复缺少 ${field}` });
  return value;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Reads the channel's balance from its upstream and stores it. Throws `fail` with the reason. */
export async function updateBalance(ctx: Pick<GatewayContext, 'db'>, channel: Channel): Promise<BalanceResult> {
  const root = billingRoot(channel);
  if (!root) throw fail('channel.balance_unsupported');
  const subscription = await getJson(`${root.url}/dashboard/billing/subscription`, root.headers);
  const limit = numberField(subscription, 'hard_limit_usd');
  const now = Date.now();
  const range = new URLSearchParams({ start_date: day(now - USAGE_DAYS * DAY_MS), end_date: day(now + DAY_MS) });
  const usage = await getJson(`${root.url}/dashboard/billing/usage?${range}`, root.headers);
  const usedCents = numberField(usage, 'total_usage');
  // Rounded to a millionth of a dollar: the subtraction of cents leaves float noise.
  const balance = Math.round((limit - usedCents / 100) * 1e6) / 1e6;
  const updated = nowSeconds();
  await setChannelBalance(ctx.db, channel.id, balance, updated);
  return { balance, balance_updated_time: updated };
}

export interface BalanceSweep {
  /** Channels whose balance was read and stored. */
  updated: number;
  /** Channels whose upstream refused or failed. */
  failed: number;
}

/** Updates the balance of every enabled channel whose type has billing endpoints, a few at a time. */
export async function updateAllBalances(ctx: Pick<GatewayContext, 'db'>): Promise<BalanceSweep> {
  const channels = (await findEnabledChannels(ctx.db)).filter((c) => billingRoot(c) !== undefined);
  const sweep: BalanceSweep = { updated: 0, failed: 0 };
  const worker = async () => {
    for (let channel = channels.shift(); channel; channel = channels.shift()) {
      try {
        await updateBalance(ctx, channel);
        sweep.updated += 1;
      } catch {
        sweep.failed += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: BALANCE_CONCURRENCY }, worker));
  return sweep;
}
