/**
 * What an operator watches, in Prometheus' text format (prom-client). Labels are bounded: client
 * format, status, and the model and channel only once a configured channel served the model (a
 * refused call is labelled with empty ones), so no caller can mint new series; never a user or a key.
 */
import client, { type Counter, type Gauge, type Histogram } from 'prom-client';
import { CounterTally, GaugeTally, HistogramTally } from './tallies.js';

const LATENCY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

export class Metrics {
  readonly registry = new client.Registry();
  readonly relayRequests: Counter<'format' | 'model' | 'channel' | 'status'>;
  readonly relayDuration = new HistogramTally<'format' | 'stream'>(
    'gateway_relay_duration_seconds',
    'Time from a relayed request to the end of its answer',
    LATENCY_BUCKETS,
  );
  readonly firstToken = new HistogramTally<'format'>(
    'gateway_relay_first_token_seconds',
    'Time to the first streamed chunk of an answer',
    LATENCY_BUCKETS,
  );
  readonly upstreamErrors: Counter<'channel' | 'status'>;
  readonly retries: Counter;
  readonly quotaBilled: Counter<'model'>;
  readonly inFlight: Gauge<'kind'>;
  readonly journalFlush: Histogram;
  readonly storeErrors: Counter<'store'>;
  /** The hot path's counts (tallies.ts): relayed requests, quota billed, requests and streams in flight. */
  readonly requests: CounterTally<'format' | 'model' | 'channel' | 'status'>;
  readonly billed: CounterTally<'model'>;
  readonly inFlightNow = new GaugeTally('kind', ['request', 'stream'] as const);

  constructor(journalPending: () => number) {
    const registers = [this.registry];
    client.collectDefaultMetrics({ register: this.registry });
    this.relayRequests = new client.Counter({
      name: 'gateway_relay_requests_total',
      help: 'Relayed requests by client format, model, channel and HTTP status',
      labelNames: ['format', 'model', 'channel', 'status'],
      registers,
      collect: () => this.requests.flush(),
    });
    this.requests = new CounterTally(this.relayRequests);
    this.registry.registerMetric(this.relayDuration as unknown as client.Metric);
    this.registry.registerMetric(this.firstToken as unknown as client.Metric);
    this.upstreamErrors = new client.Counter({
      name: 'gateway_upstream_errors_total',
      help: 'Upstream failures by channel and status (0: no answer)',
      labelNames: ['channel', 'status'],
      registers,
    });
    this.retries = new client.Counter({
      name: 'gateway_relay_retries_total',
      help: 'Calls tried again on another channel',
      registers,
    });
    this.quotaBilled = new client.Counter({
      name: 'gateway_quota_billed_total',
      help: 'Quota charged for served calls, by model',
      labelNames: ['model'],
      registers,
      collect: () => this.billed.flush(),
    });
    this.billed = new CounterTally(this.quotaBilled);
    this.inFlight = new client.Gauge({
      name: 'gateway_in_flight',
      help: 'Relayed requests (kind=request) and streams (kind=stream) in progress',
      labelNames: ['kind'],
      registers,
      collect: () => this.inFlightNow.flush(this.inFlight),
    });
    new client.Gauge({
      name: 'gateway_journal_pending',
      help: 'Quota movements and log rows waiting for their transaction',
      registers,
      collect() {
        this.set(journalPending());
      },
    });
    this.journalFlush = new client.Histogram({
      name: 'gateway_journal_commit_seconds',
      help: 'Time to commit one batch of quota movements and log rows',
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
      registers,
    });
    this.storeErrors = new client.Counter({
      name: 'gateway_store_errors_total',
      help: 'Errors from the database (store=db) and Redis (store=redis)',
      labelNames: ['store'],
      registers,
    });
  }
}
