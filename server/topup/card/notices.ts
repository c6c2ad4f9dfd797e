/**
 * What a verified provider event means for an order, whatever the provider, and the one way it is
 * applied. An event is applied at most once per event id, and each order moves at most once
 * (the conditional UPDATEs of completeOrder and card-repository.ts decide between concurrent and
 * replayed deliveries, across processes). An event naming an order of another payment method is
 * refused: a Stripe event can never pay an EPay order.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { GatewayContext } from '../../context.js';
import { nowSeconds } from '../../db/index.js';
import { logText } from '../../logs/messages.js';
import { publishOrderPaid } from '../paid.js';
import { centsToMoney } from '../epay.js';
import { completeOrder } from '../repository.js';
import {
  closeOrder,
  eventTaken,
  findOrder,
  findOrderByRef,
  recordEvent,
  reverseOrder,
  setGatewayRef,
  ORDER_DISPUTED,
  ORDER_EXPIRED,
  ORDER_FAILED,
  ORDER_REFUNDED,
  type OrderRow,
} from '../card-repository.js';

export type CardMethod = 'stripe' | 'creem';

export type Notice =
  /** Paid in full: `cents` in `currency`, `ref` the provider's id of the payment. */
  | { kind: 'paid'; tradeNo: string; cents: number; currency: string; ref: string | null }
  /** The checkout finished but the money is still on its way (a bank debit): only the ref is noted. */
  | { kind: 'awaiting'; tradeNo: string; ref: string | null }
  | { kind: 'failed' | 'expired'; tradeNo: string }
  /** The payment was taken back; found by the payment's id or the order number, whichever is known. */
  | { kind: 'refunded' | 'disputed'; tradeNo: string | null; ref: string | null }
  | { kind: 'ignored'; why: string };

export interface ProviderEvent {
  id: string;
  type: string;
}

/** What the provider is answered: 2xx once the event is taken (now or before), else it retries. */
export interface NoticeAnswer {
  status: 200 | 400 | 404;
  outcome: string;
}

async function locate(ctx: GatewayContext, method: CardMethod, notice: Notice): Promise<OrderRow | undefined> {
  if (notice.kind === 'ignored') return undefined;
  const ref = 'ref' in notice ? notice.ref : null;
  if ((notice.kind === 'refunded' || notice.kind === 'disputed') && ref) {
    const byRef = await findOrderByRef(ctx.db, method, ref);
    if (byRef) return byRef;
  }
  return notice.tradeNo ? findOrder(ctx.db, notice.tradeNo) : undefined;
}

export async function applyNotice(
  ctx: GatewayContext,
  log: FastifyBaseLogger,
  method: CardMethod,
  event: ProviderEvent,
  notice: Notice,
): Promise<NoticeAnswer> {
  const { db, dbKind, options } = ctx;
  const facts = { provider: method, event_id: event.id, event_type: event.type };
  if (await eventTaken(db, method, event.id)) return { status: 200, outcome: 'duplicate' };
  const now = nowSeconds();
  const done = async (outcome: string, tradeNo = ''): Promise<NoticeAnswer> => {
    await recordEvent(db, { provider: method, eventId: event.id, type: event.type, tradeNo, outcome, now });
    return { status: 200, outcome };
  };
  if (notice.kind === 'ignored') return done(`ignored:${notice.why}`);

  const order = await locate(ctx, method, notice);
  if (!order) {
    // Not yet known (a refund delivered before its payment's completion): the provider retries.
    log.warn(facts, 'payment event refused: no such order');
    return { status: 404, outcome: 'unknown_order' };
  }
  if (order.payment_method !== method) {
    log.warn(
      { ...facts, trade_no: order.trade_no, order_method: order.payment_method },
      'payment event refused: order of another method',
    );
    return { status: 400, outcome: 'wrong_method' };
  }
  switch (notice.kind) {
    case 'awaiting':
      if (notice.ref) await setGatewayRef(db, order.id, notice.ref);
      return done('awaiting', order.trade_no);
    case 'failed':
    case 'expired': {
      const closed = await closeOrder(db, order.id, notice.kind === 'failed' ? ORDER_FAILED : ORDER_EXPIRED, now);
      return done(closed ? notice.kind : 'unchanged', order.trade_no);
    }
    case 'paid': {
      if (notice.ref) await setGatewayRef(db, order.id, notice.ref);
      const outcome = await completeOrder(db, dbKind, order.trade_no, notice.cents, now, (quota, paid) =>
        logText(options, 'card_topup', { quota, paid: centsToMoney(paid), currency: notice.currency.toUpperCase(), method }),
      );
      if (outcome.kind === 'credited') publishOrderPaid(ctx.bus, outcome.userId);
      if (outcome.kind === 'credited' || outcome.kind === 'already') return done(outcome.kind, order.trade_no);
      log.warn({ ...facts, trade_no: order.trade_no, outcome: outcome.kind }, 'payment event refused');
      return { status: 400, outcome: outcome.kind };
    }
    case 'refunded':
    case 'disputed': {
      const status = notice.kind === 'refunded' ? ORDER_REFUNDED : ORDER_DISPUTED;
      const key = notice.kind === 'refunded' ? 'payment_refunded' : 'payment_disputed';
      const outcome = await reverseOrder(db, dbKind, order, status, now, (quota) =>
        logText(options, key, { quota, method, trade_no: order.trade_no }),
      );
      if (outcome.kind === 'reversed') publishOrderPaid(ctx.bus, outcome.userId);
      return done(outcome.kind, order.trade_no);
    }
  }
}
