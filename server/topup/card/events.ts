/**
 * Reading a verified event body as a Notice. Bodies are the providers' (trusted once signed), but
 * read field by field with their types checked: a missing or odd field makes the event ignored,
 * never a crash or a credit.
 */
import type { Notice, ProviderEvent } from './notices.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (o: Obj | undefined, name: string): string | null => {
  const v = o?.[name];
  return typeof v === 'string' && v !== '' && v.length <= 255 ? v : null;
};
const int = (o: Obj | undefined, name: string): number | null => {
  const v = o?.[name];
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null;
};
const obj = (o: Obj | undefined, name: string): Obj | undefined => (isObj(o?.[name]) ? (o[name] as Obj) : undefined);

export interface ParsedEvent {
  event: ProviderEvent;
  notice: Notice;
}

function parse(raw: string): Obj | null {
  try {
    const value: unknown = JSON.parse(raw);
    return isObj(value) ? value : null;
  } catch {
    return null;
  }
}

/** A Stripe event; `subtotal`: the price before promotion codes is what the order is checked against. */
export function stripeEvent(raw: string, subtotal: boolean): ParsedEvent | null {
  const body = parse(raw);
  const id = str(body ?? undefined, 'id');
  const type = str(body ?? undefined, 'type');
  const object = obj(obj(body ?? undefined, 'data'), 'object');
  if (!body || !id || !type || !object) return null;
  const event = { id, type };
  const tradeNo = str(object, 'client_reference_id');
  const ref = str(object, 'payment_intent');
  const metaTradeNo = str(obj(object, 'metadata'), 'trade_no');
  const paid = (): Notice => {
    const cents = int(object, subtotal ? 'amount_subtotal' : 'amount_total');
    const currency = str(object, 'currency') ?? '';
    if (!tradeNo || cents === null) return { kind: 'ignored', why: 'incomplete' };
    return object.payment_status === 'paid'
      ? { kind: 'paid', tradeNo, cents, currency, ref }
      : { kind: 'awaiting', tradeNo, ref };
  };
  switch (type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return { event, notice: paid() };
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired':
      return tradeNo
        ? { event, notice: { kind: type.endsWith('failed') ? 'failed' : 'expired', tradeNo } }
        : { event, notice: { kind: 'ignored', why: 'incomplete' } };
    case 'charge.refunded':
      // Only a full refund takes the top-up back; a partial one is for the admin to settle.
      if (object.refunded !== true) return { event, notice: { kind: 'ignored', why: 'partial_refund' } };
      return { event, notice: { kind: 'refunded', tradeNo: metaTradeNo, ref } };
    case 'charge.dispute.created':
      return { event, notice: { kind: 'disputed', tradeNo: metaTradeNo, ref } };
    default:
      return { event, notice: { kind: 'ignored', why: 'type' } };
  }
}

/** A Creem event: `{id, eventType, object}`. */
export function creemEvent(raw: string): ParsedEvent | null {
  const body = parse(raw);
  const id = str(body ?? undefined, 'id');
  const type = str(body ?? undefined, 'eventType');
  const object = obj(body ?? undefined, 'object');
  if (!body || !id || !type || !object) return null;
  const event = { id, type };
  const order = obj(object, 'order');
  const ref = str(order, 'id');
  switch (type) {
    case 'checkout.completed': {
      const tradeNo = str(object, 'request_id');
      const cents = int(order, 'amount_paid') ?? int(order, 'amount');
      if (!tradeNo || cents === null) return { event, notice: { kind: 'ignored', why: 'incomplete' } };
      if (order?.status !== 'paid') return { event, notice: { kind: 'awaiting', tradeNo, ref } };
      return { event, notice: { kind: 'paid', tradeNo, cents, currency: str(order, 'currency') ?? '', ref } };
    }
    case 'refund.created':
    case 'dispute.created': {
      // As with Stripe, only a full refund takes the top-up back.
      const refunded = int(object, 'refund_amount');
      const paid = int(order, 'amount_paid');
      if (type === 'refund.created' && refunded !== null && paid !== null && refunded < paid)
        return { event, notice: { kind: 'ignored', why: 'partial_refund' } };
      const tradeNo = str(obj(object, 'checkout'), 'request_id') ?? str(object, 'request_id');
      const kind = type === 'refund.created' ? 'refunded' : 'disputed';
      return { event, notice: { kind, tradeNo, ref } };
    }
    default:
      return { event, notice: { kind: 'ignored', why: 'type' } };
  }
}
