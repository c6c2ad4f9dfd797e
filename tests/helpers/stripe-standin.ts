/**
 * A local stand-in for Stripe's API and webhooks. It takes `POST /v1/checkout/sessions` as Stripe
 * does (form-encoded with bracketed keys, `Authorization: Bearer <secret key>`, an Idempotency-Key)
 * and answers a Checkout Session object; it makes the events Stripe sends (checkout.session.*,
 * charge.refunded, charge.dispute.created) and signs them as Stripe documents, written here
 * independently of the gateway: `Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256("<t>.<body>")>`.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInSession {
  id: string;
  object: 'checkout.session';
  client_reference_id: string;
  amount_subtotal: number;
  amount_total: number;
  currency: string;
  payment_intent: string;
  payment_status: 'unpaid' | 'paid';
  status: 'open' | 'complete' | 'expired';
  metadata: Record<string, string>;
  url: string;
  /** The form fields the gateway sent, as received. */
  fields: Record<string, string>;
}

export interface DeliverOptions {
  secret?: string;
  /** Unix seconds of the signature (default now). */
  timestamp?: number;
  /** Sent instead of the signed body (tampering). */
  body?: string;
  /** Replaces the header altogether. */
  header?: string;
}

export interface StripeStandIn {
  url: string;
  secretKey: string;
  webhookSecret: string;
  sessions: Map<string, StandInSession>;
  /** Requests that came with a wrong key. */
  refusedKeys: number;
  event(type: string, object: object, id?: string): Record<string, unknown>;
  completed(session: StandInSession, paid?: boolean): Record<string, unknown>;
  refunded(session: StandInSession, full?: boolean): Record<string, unknown>;
  disputed(session: StandInSession): Record<string, unknown>;
  signature(body: string, secret: string, timestamp: number): string;
  deliver(webhookUrl: string, event: object, options?: DeliverOptions): Promise<{ status: number; body: string }>;
  sessionFor(tradeNo: string): StandInSession;
  close(): Promise<void>;
}

const hex = (n: number) => randomBytes(n).toString('hex');

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const secretKey = `sk_test_${hex(12)}`;
  const webhookSecret = `whsec_${hex(16)}`;
  const sessions = new Map<string, StandInSession>();
  const byIdempotency = new Map<string, StandInSession>();
  let url = '';
  const standIn = { refusedKeys: 0 } as StripeStandIn;

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: object) =>
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${hex(6)}` }).end(JSON.stringify(body));
      if (req.headers.authorization !== `Bearer ${secretKey}`) {
        standIn.refusedKeys += 1;
        send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
        return;
      }
      if (req.method !== 'POST' || req.url !== '/v1/checkout/sessions') {
        send(404, { error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } });
        return;
      }
      const key = String(req.headers['idempotency-key'] ?? '');
      const again = byIdempotency.get(key);
      if (again) return send(200, again);
      const fields = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const amount = Number(fields['line_items[0][price_data][unit_amount]']);
      const quantity = Number(fields['line_items[0][quantity]'] ?? '1');
      if (fields.mode !== 'payment' || !Number.isInteger(amount) || amount < 1 || !fields.success_url) {
        send(400, { error: { type: 'invalid_request_error', message: 'Missing required param' } });
        return;
      }
      const id = `cs_test_${hex(12)}`;
      const session: StandInSession = {
        id,
        object: 'checkout.session',
        client_reference_id: fields.client_reference_id ?? '',
        amount_subtotal: amount * quantity,
        amount_total: amount * quantity,
        currency: fields['line_items[0][price_data][currency]'] ?? '',
        payment_intent: `pi_${hex(12)}`,
        payment_status: 'unpaid',
        status: 'open',
        metadata: { trade_no: fields['metadata[trade_no]'] ?? '' },
        url: `${url}/c/pay/${id}`,
        fields,
      };
      sessions.set(id, session);
      if (key) byIdempotency.set(key, session);
      const { fields: _fields, ...answer } = session;
      send(200, { ...answer, payment_intent: null, mode: 'payment', livemode: false });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const sessionView = (s: StandInSession) => {
    const { fields: _fields, url: _url, ...rest } = s;
    return rest;
  };

  Object.assign(standIn, {
    url,
    secretKey,
    webhookSecret,
    sessions,
    event: (type: string, object: object, id = `evt_${hex(12)}`) => ({
      id,
      object: 'event',
      api_version: '2025-01-27.acacia',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      type,
      data: { object },
    }),
    completed: (s: StandInSession, paid = true) =>
      standIn.event('checkout.session.completed', {
        ...sessionView(s),
        status: 'complete',
        payment_status: paid ? 'paid' : 'unpaid',
      }),
    refunded: (s: StandInSession, full = true) =>
      standIn.event('charge.refunded', {
        id: `ch_${hex(12)}`,
        object: 'charge',
        amount: s.amount_total,
        amount_refunded: full ? s.amount_total : Math.floor(s.amount_total / 2),
        refunded: full,
        currency: s.currency,
        payment_intent: s.payment_intent,
        metadata: {},
      }),
    disputed: (s: StandInSession) =>
      standIn.event('charge.dispute.created', {
        id: `dp_${hex(12)}`,
        object: 'dispute',
        amount: s.amount_total,
        charge: `ch_${hex(12)}`,
        payment_intent: s.payment_intent,
        reason: 'fraudulent',
        status: 'needs_response',
        metadata: {},
      }),
    signature: (body: string, secret: string, timestamp: number) =>
      `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`,
    async deliver(webhookUrl: string, event: object, options: DeliverOptions = {}) {
      const body = JSON.stringify(event);
      const header =
        options.header ??
        standIn.signature(body, options.secret ?? webhookSecret, options.timestamp ?? Math.floor(Date.now() / 1000));
      const res = await fetch(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header, 'user-agent': 'Stripe/1.0' },
        body: options.body ?? body,
      });
      return { status: res.status, body: await res.text() };
    },
    sessionFor(tradeNo: string) {
      const found = [...sessions.values()].find((s) => s.client_reference_id === tradeNo);
      if (!found) throw new Error(`stand-in: no session for ${tradeNo}`);
      return found;
    },
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  });
  return standIn;
}
