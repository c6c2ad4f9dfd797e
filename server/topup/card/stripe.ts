/**
 * Stripe as the gateway speaks it: Checkout Sessions made with the official SDK (its API base
 * movable, so tests reach a local stand-in), and the check of a webhook's `Stripe-Signature`
 * (`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" under the endpoint secret>`, more than
 * one v1 while a secret is rolled) against the raw body, before the body is parsed.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import Stripe from 'stripe';

/** How far an event's timestamp may be from now (Stripe's own default): older ones are replays. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

let cached: { key: string; base: string; client: Stripe } | null = null;

/** The SDK's client for this secret key and API base (null: Stripe's own). */
export function stripeClient(secretKey: string, base: URL | null): Stripe {
  const baseText = base?.href ?? '';
  if (cached?.key === secretKey && cached.base === baseText) return cached.client;
  const protocol = base?.protocol === 'http:' ? 'http' : 'https';
  const client = new Stripe(secretKey, {
    maxNetworkRetries: 1,
    timeout: 20_000,
    telemetry: false,
    ...(base ? { host: base.hostname, port: base.port || (protocol === 'http' ? 80 : 443), protocol } : {}),
  });
  cached = { key: secretKey, base: baseText, client };
  return client;
}

/** What a checkout sells: the order (its number, what it costs in cents) and what the page says. */
export interface CheckoutOrder {
  tradeNo: string;
  cents: number;
  email: string;
}

export interface StripeCheckoutSettings {
  currency: string;
  successUrl: string;
  cancelUrl: string;
  promotionCodes: boolean;
}

/**
 * A Checkout Session for one order: priced here (one line of `cents`), the order number as the
 * session's client_reference_id and in the PaymentIntent's metadata, so refunds and disputes, which
 * name the payment, can be traced to it. Answers the page to send the person to.
 */
export async function createStripeCheckout(
  client: Stripe,
  order: CheckoutOrder,
  title: string,
  settings: StripeCheckoutSettings,
): Promise<string> {
  const metadata = { trade_no: order.tradeNo };
  const session = await client.checkout.sessions.create(
    {
      mode: 'payment',
      client_reference_id: order.tradeNo,
      line_items: [
        { quantity: 1, price_data: { currency: settings.currency, unit_amount: order.cents, product_data: { name: title } } },
      ],
      metadata,
      payment_intent_data: { metadata },
      success_url: settings.successUrl,
      cancel_url: settings.cancelUrl,
      ...(settings.promotionCodes ? { allow_promotion_codes: true } : {}),
      ...(order.email ? { customer_email: order.email } : {}),
    },
    { idempotencyKey: `checkout-${order.tradeNo}` },
  );
  if (!session.url) throw new Error('Stripe answered a checkout session without a url');
  return session.url;
}

const HEX = /^[0-9a-f]{64}$/;

/** Whether `header` signs `rawBody` under `secret`, made within the tolerance of `now` (seconds). */
export function verifyStripeSignature(rawBody: string, header: string, secret: string, now: number): boolean {
  if (!secret || !header) return false;
  let timestamp: number | null = null;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    const name = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (name === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (name === 'v1' && HEX.test(value)) signatures.push(Buffer.from(value, 'hex'));
  }
  if (timestamp === null || signatures.length === 0) return false;
  if (Math.abs(now - timestamp) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest();
  return signatures.some((given) => timingSafeEqual(given, expected));
}
