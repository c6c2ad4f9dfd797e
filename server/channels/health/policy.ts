/**
 * The health rules as the options set them (server/options/registry.ts, `channel_health.*`), read
 * on each use so a change made in the console applies to the next call.
 */
import type { OptionStore } from '../../options/store.js';

export interface HealthPolicy {
  /** Cool channels down at all; off, routing ignores every cool-down. */
  enabled: boolean;
  windowMs: number;
  /** Calls a window must hold before its error rate counts. */
  minRequests: number;
  /** Error share (0–1) at or above which a channel trips; 0 turns the rate rule off. */
  errorRate: number;
  /** Failures in a row that trip a channel whatever the rate; 0 turns the rule off. */
  consecutiveFailures: number;
  /** The first cool-down; each further trip doubles it, up to `cooldownMaxMs`. */
  cooldownMs: number;
  cooldownMaxMs: number;
  /** Weigh channels of a tier by their recent latency and error rate. */
  latencyRouting: boolean;
}

const atLeast = (n: number, min: number) => (Number.isFinite(n) ? Math.max(min, n) : min);

export function policyOf(options: OptionStore): HealthPolicy {
  const cooldownMs = atLeast(options.number('channel_health.cooldown_seconds'), 1) * 1000;
  return {
    enabled: options.bool('channel_health.enabled'),
    windowMs: atLeast(options.number('channel_health.window_seconds'), 1) * 1000,
    minRequests: atLeast(options.number('channel_health.min_requests'), 1),
    errorRate: Math.min(1, atLeast(options.number('channel_health.error_rate'), 0)),
    consecutiveFailures: atLeast(Math.floor(options.number('channel_health.consecutive_failures')), 0),
    cooldownMs,
    cooldownMaxMs: Math.max(cooldownMs, atLeast(options.number('channel_health.cooldown_max_seconds'), 1) * 1000),
    latencyRouting: options.bool('channel_health.latency_routing_enabled'),
  };
}

/** The cool-down of the `trips`-th trip in a row: doubling from the first, capped. */
export function backoffMs(policy: Pick<HealthPolicy, 'cooldownMs' | 'cooldownMaxMs'>, trips: number): number {
  const doubled = policy.cooldownMs * 2 ** Math.min(30, Math.max(0, trips - 1));
  return Math.min(policy.cooldownMaxMs, doubled);
}
