/**
 * Channel health: a circuit breaker per channel and per key of a multi-key channel.
 *
 * Closed, a subject's outcomes fill its window (this process's calls). When its error share reaches
 * `error_rate` over at least `min_requests` calls, or `consecutive_failures` fail in a row, it trips:
 * routing skips it for a cool-down (doubling on each trip in a row, capped), shared by every process
 * through the board. Once the cool-down is over it is half-open: the next call routed to it (or the
 * background probe) decides — a success closes it, a failure trips it again. Calls already under way
 * when it tripped have no say. Only failures a channel answers for count (see `isChannelFailure`);
 * a request's own errors (400 …) count neither way.
 */
import type { OptionStore } from '../../options/store.js';
import type { Candidate, RoutingAdvisor } from '../cache.js';
import { CooldownBoard, type Cooldown, type TripRule } from './board.js';
import { latencyFactor, LatencyTable } from './latency.js';
import { backoffMs, policyOf, type HealthPolicy } from './policy.js';
import { OutcomeWindow } from './window.js';

export type Verdict = 'ok' | 'fail' | 'neutral';

/** What the console shows of a channel's (or key's) health. */
export interface HealthState {
  state: 'healthy' | 'cooling' | 'half_open';
  /** Epoch seconds the cool-down ends; 0 when healthy. */
  until: number;
  rule: TripRule | '';
  reason: string;
  trips: number;
  failures: number;
  requests: number;
}

/** Upstream answers that say something about the channel rather than the request. */
export function isChannelFailure(status: number): boolean {
  return status === 0 || status >= 500 || status === 401 || status === 403 || status === 404 || status === 408 || status === 429;
}

export const channelSubject = (id: number) => `c:${id}`;
export const keySubject = (id: number, hash: string) => `k:${id}:${hash}`;

/** How long a half-open subject waits for its deciding call before another may try. */
const PROBE_CLAIM_MS = 120_000;
const REASON_MAX = 300;

/** Index of a weighted random choice; every weight 0 makes each equally likely. */
export function pickIndex(weights: readonly number[], random: () => number): number {
  if (weights.length === 0) return -1;
  const total = weights.reduce((sum, w) => sum + Math.max(0, w), 0);
  if (total === 0) return Math.floor(random() * weights.length);
  let point = random() * total;
  for (let i = 0; i < weights.length; i++) {
    point -= Math.max(0, weights[i] ?? 0);
    if (point < 0) return i;
  }
  return weights.findLastIndex((w) => w > 0);
}

export class ChannelHealth implements RoutingAdvisor {
  private readonly windows = new Map<string, OutcomeWindow>();
  /** Half-open subjects whose deciding call is under way in this process, until when. */
  private readonly probes = new Map<string, number>();
  readonly latency = new LatencyTable();
  /** The policy as the options last gave it: read on every call, made again when one of them changes. */
  private current: HealthPolicy | null = null;

  constructor(
    private readonly options: OptionStore,
    readonly board: CooldownBoard,
    private readonly now: () => number = Date.now,
  ) {
    options.on('change', (key: string) => {
      if (key.startsWith('channel_health.')) this.current = null;
    });
  }

  policy(): HealthPolicy {
    return (this.current ??= policyOf(this.options));
  }

  /** Whether a call may go to `subject` now: not while it cools down, nor while its deciding call is out. */
  usable(subject: string, now = this.now()): boolean {
    if (!this.policy().enabled) return true;
    const entry = this.board.get(subject);
    if (!entry || entry.closedAt > 0) return true;
    if (now < entry.until) return false;
    const claim = this.probes.get(subject);
    return claim === undefined || claim <= now;
  }

  /** A half-open subject's next call is its deciding one: no other goes there until it ends. */
  claim(subject: string, now = this.now()): void {
    const entry = this.board.get(subject);
    if (entry && entry.closedAt === 0 && now >= entry.until) this.probes.set(subject, now + PROBE_CLAIM_MS);
  }

  /** Whether the subject cools down or waits for its deciding call (the background probe's work). */
  halfOpenUnclaimed(subject: string, now = this.now()): boolean {
    const entry = this.board.get(subject);
    if (!entry || entry.closedAt > 0 || now < entry.until) return false;
    const claim = this.probes.get(subject);
    return claim === undefined || claim <= now;
  }

  choose(candidates: readonly Candidate[], random: () => number): Candidate | undefined {
    const policy = this.policy();
    const now = this.now();
    const open = policy.enabled ? candidates.filter((c) => this.usable(channelSubject(c.channel.id), now)) : candidates;
    if (open.length === 0) return undefined;
    const weights = policy.latencyRouting ? this.adjustedWeights(open, policy, now) : open.map((c) => c.weight);
    const chosen = open[pickIndex(weights, random)];
    if (chosen && policy.enabled) this.claim(channelSubject(chosen.channel.id), now);
    return chosen;
  }

  /** Every candidate cools down: the one that tripped longest ago serves rather than none. */
  fallback(candidates: readonly Candidate[]): Candidate | undefined {
    return this.leastRecentlyTripped(candidates, (c) => channelSubject(c.channel.id));
  }

  leastRecentlyTripped<T>(items: readonly T[], subjectOf: (item: T) => string): T | undefined {
    let best: T | undefined;
    let bestAt = Infinity;
    for (const item of items) {
      const entry = this.board.get(subjectOf(item));
      const at = entry && entry.closedAt === 0 ? entry.trippedAt : 0;
      if (at < bestAt) {
        best = item;
        bestAt = at;
      }
    }
    return best;
  }

  /** Weights scaled by how fast and how reliably each channel answered lately (this process's figures). */
  private adjustedWeights(open: readonly Candidate[], policy: HealthPolicy, now: number): number[] {
    const allZero = open.every((c) => c.weight <= 0);
    const latencies = open.map((c) => this.latency.get(c.channel.id, now, policy.windowMs));
    const known = latencies.filter((ms): ms is number => ms !== undefined);
    const fastest = known.length > 0 ? Math.min(...known) : undefined;
    return open.map((c, i) => {
      const stats = this.windows.get(channelSubject(c.channel.id))?.stats(now, policy.windowMs);
      const errorShare = stats && stats.requests > 0 ? stats.failures / stats.requests : 0;
      return (allZero ? 1 : Math.max(0, c.weight)) * latencyFactor(latencies[i], fastest, errorShare);
    });
  }

  /**
   * One outcome of a call (or, with `decisive`, of a test or probe) on a channel and, for a
   * multi-key channel, on the key it used. `latencyMs` (successes) feeds latency-aware routing.
   */
  record(
    channelId: number,
    keyHash: string | null,
    verdict: Verdict,
    detail: { message?: string; latencyMs?: number; decisive?: boolean } = {},
  ): void {
    const policy = this.policy();
    const now = this.now();
    if (verdict === 'ok' && detail.latencyMs !== undefined) this.latency.add(channelId, detail.latencyMs, now);
    const reason = (detail.message ?? '').slice(0, REASON_MAX);
    this.observe(channelSubject(channelId), verdict, reason, policy, now, detail.decisive === true);
    if (keyHash !== null) this.observe(keySubject(channelId, keyHash), verdict, reason, policy, now, detail.decisive === true);
  }

  private observe(subject: string, verdict: Verdict, reason: string, policy: HealthPolicy, now: number, decisive: boolean) {
    this.probes.delete(subject);
    if (verdict === 'neutral') return;
    const entry = this.board.get(subject);
    if (entry && entry.closedAt === 0) {
      const halfOpen = now >= entry.until;
      if (verdict === 'ok' && (halfOpen || decisive)) {
        this.board.set(subject, { ...entry, closedAt: now });
        this.windows.get(subject)?.reset();
      } else if (verdict === 'fail' && halfOpen) {
        this.trip(subject, entry, { rule: 'probe_failed', failures: 1, requests: 1, reason }, policy, now);
      }
      return;
    }
    if (!policy.enabled) return;
    let window = this.windows.get(subject);
    if (!window) this.windows.set(subject, (window = new OutcomeWindow()));
    window.add(verdict === 'ok', now, policy.windowMs);
    if (verdict === 'ok') return;
    const { requests, failures } = window.stats(now, policy.windowMs);
    if (policy.consecutiveFailures > 0 && window.consecutive >= policy.consecutiveFailures) {
      this.trip(
        subject,
        entry,
        { rule: 'consecutive', failures: window.consecutive, requests: window.consecutive, reason },
        policy,
        now,
      );
    } else if (policy.errorRate > 0 && requests >= policy.minRequests && failures / requests >= policy.errorRate) {
      this.trip(subject, entry, { rule: 'error_rate', failures, requests, reason }, policy, now);
    }
  }

  private trip(
    subject: string,
    previous: Cooldown | undefined,
    why: Pick<Cooldown, 'rule' | 'failures' | 'requests' | 'reason'>,
    policy: HealthPolicy,
    now: number,
  ): void {
    // A subject tripping again soon after it closed is flapping: its cool-downs keep growing.
    const recent = previous !== undefined && (previous.closedAt === 0 || now - previous.closedAt < policy.cooldownMaxMs);
    const trips = recent ? previous.trips + 1 : 1;
    this.board.set(subject, { ...why, until: now + backoffMs(policy, trips), trips, trippedAt: now, closedAt: 0 });
    this.windows.get(subject)?.reset();
  }

  /** The state of a channel or key as the console shows it. */
  stateOf(subject: string, now = this.now()): HealthState {
    const entry = this.board.get(subject);
    if (!entry || entry.closedAt > 0 || !this.policy().enabled) {
      return { state: 'healthy', until: 0, rule: '', reason: '', trips: 0, failures: 0, requests: 0 };
    }
    return {
      state: now < entry.until ? 'cooling' : 'half_open',
      until: Math.ceil(entry.until / 1000),
      rule: entry.rule,
      reason: entry.reason,
      trips: entry.trips,
      failures: entry.failures,
      requests: entry.requests,
    };
  }

  /** Forgets closed entries kept only to grow the next cool-down, once that no longer applies. */
  prune(now = this.now()): void {
    const { cooldownMaxMs } = this.policy();
    for (const [subject, entry] of this.board.subjects()) {
      if (entry.closedAt > 0 && now - entry.closedAt >= cooldownMaxMs) this.board.delete(subject);
    }
  }
}
