/**
 * A local stand-in for Creem's API and webhooks: `POST /v1/checkouts` with the `x-api-key` header
 * (`product_id`, `request_id`, `customer.email`, `metadata`) answers a checkout with its
 * `checkout_url`; the events it sends (checkout.completed, refund.created, dispute.created) carry
 * the `creem-signature` header, the hex HMAC-SHA256 of the raw body under the webhook secret —
 * written here independently of the gateway.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CreemCheckout {
  id: string;
  request_id: string;
  product_id: string;
  order_id: string;
  body: Record<string, unknown>;
}

export interface CreemStandIn {
  url: string;
  apiKey: string;
  webhookSecret: string;
  checkouts: Map<string, CreemCheckout>;
  refusedKeys: number;
  checkoutFor(requestId: string): CreemCheckout;
  completed(c: CreemCheckout, amountPaid: number, status?: string): Record<string, unknown>;
  /** A refund of `amount` of an order that was paid `paid` (all of it unless said). */
  refunded(c: CreemCheckout, amount: number, paid?: number): Record<string, unknown>;
  disputed(c: CreemCheckout, amount: number): Record<string, unknown>;
  deliver(
    webhookUrl: string,
    event: object,
    options?: { secret?: string; body?: string; signature?: string },
  ): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

const hex = (n: number) => randomBytes(n).toString('hex');

export async function startCreemStandIn(): Promise<CreemStandIn> {
  const apiKey = `creem_test_${hex(12)}`;
  const webhookSecret = `whsec_${hex(16)}`;
  const checkouts = new Map<string, CreemCheckout>();
  const standIn = { refusedKeys: 0 } as CreemStandIn;
  let url = '';

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const send = (status: number, body: object) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.headers['x-api-key'] !== apiKey) {
        standIn.refusedKeys += 1;
        return send(403, { statusCode: 403, error: 'Forbidden', message: ['Invalid API key'] });
      }
      if (req.method !== 'POST' || req.url !== '/v1/checkouts') return send(404, { statusCode: 404, error: 'Not Found' });
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send(400, { statusCode: 400, error: 'Bad Request' });
      }
      if (typeof body.product_id !== 'string' || !body.product_id.startsWith('prod_')) {
        return send(404, { statusCode: 404, error: 'Not Found', message: ['Product not found'] });
      }
      const checkout: CreemCheckout = {
        id: `ch_${hex(10)}`,
        request_id: String(body.request_id ?? ''),
        product_id: body.product_id,
        order_id: `ord_${hex(10)}`,
        body,
      };
      checkouts.set(checkout.id, checkout);
      send(200, {
        id: checkout.id,
        object: 'checkout',
        mode: 'test',
        product: checkout.product_id,
        request_id: checkout.request_id,
        status: 'pending',
        checkout_url: `${url}/checkout/${checkout.id}`,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const order = (c: CreemCheckout, amountPaid: number, status: string) => ({
    object: 'order',
    id: c.order_id,
    product: c.product_id,
    amount: amountPaid,
    amount_paid: amountPaid,
    currency: 'USD',
    status,
    type: 'onetime',
    mode: 'test',
  });
  const event = (eventType: string, object: object) => ({
    id: `evt_${hex(10)}`,
    eventType,
    created_at: Date.now(),
    object,
  });

  Object.assign(standIn, {
    url,
    apiKey,
    webhookSecret,
    checkouts,
    checkoutFor(requestId: string) {
      const found = [...checkouts.values()].find((c) => c.request_id === requestId);
      if (!found) throw new Error(`stand-in: no checkout for ${requestId}`);
      return found;
    },
    completed: (c: CreemCheckout, amountPaid: number, status = 'paid') =>
      event('checkout.completed', {
        id: c.id,
        object: 'checkout',
        request_id: c.request_id,
        order: order(c, amountPaid, status),
        product: { id: c.product_id, object: 'product' },
        customer: { id: `cust_${hex(6)}`, object: 'customer', email: 'buyer@example.com' },
        status: 'completed',
        metadata: c.body.metadata,
        mode: 'test',
      }),
    refunded: (c: CreemCheckout, amount: number, paid = amount) =>
      event('refund.created', {
        id: `ref_${hex(8)}`,
        object: 'refund',
        status: 'succeeded',
        refund_amount: amount,
        currency: 'USD',
        checkout: { id: c.id, object: 'checkout', request_id: c.request_id },
        order: order(c, paid, 'paid'),
      }),
    disputed: (c: CreemCheckout, amount: number) =>
      event('dispute.created', {
        id: `disp_${hex(8)}`,
        object: 'dispute',
        amount,
        currency: 'USD',
        checkout: { id: c.id, object: 'checkout', request_id: c.request_id },
        order: order(c, amount, 'paid'),
      }),
    async deliver(webhookUrl: string, ev: object, options: { secret?: string; body?: string; signature?: string } = {}) {
      const body = JSON.stringify(ev);
      const signature =
        options.signature ??
        createHmac('sha256', options.secret ?? webhookSecret)
          .update(body)
          .digest('hex');
      const res = await fetch(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'creem-signature': signature },
        body: options.body ?? body,
      });
      return { status: res.status, body: await res.text() };
    },
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  });
  return standIn;
}
