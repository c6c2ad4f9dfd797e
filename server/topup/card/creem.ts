/**
 * Creem (a merchant of record) as the gateway speaks it: a checkout for a fixed product
 * (`POST {api}/v1/checkouts` with the `x-api-key` header, the order number as `request_id`),
 * and the check of a webhook's `creem-signature` header: the hex HMAC-SHA256 of the raw body under
 * the webhook secret. Creem's events carry no timestamp: a replay is caught by its event id and the
 * order's state instead.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { CreemProduct } from '../../options/payment-options.js';

export const CREEM_API = 'https://api.creem.io';
export const CREEM_TEST_API = 'https://test-api.creem.io';

export interface CreemCheckoutSettings {
  apiBase: string;
  apiKey: string;
  successUrl: string;
}

/** A checkout of `product` for order `tradeNo`; answers the page to send the person to. */
export async function createCreemCheckout(
  order: { tradeNo: string; email: string },
  product: CreemProduct,
  settings: CreemCheckoutSettings,
): Promise<string> {
  const res = await fetch(`${settings.apiBase}/v1/checkouts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': settings.apiKey },
    body: JSON.stringify({
      product_id: product.productId,
      request_id: order.tradeNo,
      success_url: settings.successUrl,
      ...(order.email ? { customer: { email: order.email } } : {}),
      metadata: { trade_no: order.tradeNo },
    }),
    signal: AbortSignal.timeout(20_000),
  });
  const answer: unknown = await res.json().catch(() => null);
  const url = typeof answer === 'object' && answer !== null ? (answer as { checkout_url?: unknown }).checkout_url : undefined;
  if (!res.ok || typeof url !== 'string' || !/^https?:\/\//i.test(url)) {
    throw new Error(`Creem answered the checkout with HTTP ${res.status}`);
  }
  return url;
}

export function verifyCreemSignature(rawBody: string, header: string, secret: string): boolean {
  if (!secret || !/^[0-9a-f]{64}$/i.test(header)) return false;
  const expected = createHmac('sha256', secret).update(rawBody, 'utf8').digest();
  return timingSafeEqual(Buffer.from(header, 'hex'), expected);
}
