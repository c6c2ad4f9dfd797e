/**
 * EPay purchases, of a top-up or a plan alike: the pending order and the signed form the browser
 * posts to the provider (epayCheckout), and the provider's notice (takeEpayNotice, served by
 * epayNoticeRoutes), which completes an order exactly once through completeOrder.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { nowSeconds } from '../db/index.js';
import { fail } from '../http/errors.js';
import { logText } from '../logs/messages.js';
import type { GatewayContext } from '../context.js';
import { publishOrderPaid } from './paid.js';
import { centsToMoney, epayVerify, moneyToCents, PAY_TYPES, purchaseForm, TRADE_SUCCESS, type PaymentMethod } from './epay.js';
import { onlineTopUpEnabled } from './pricing.js';
import { completeOrder, insertOrder, newTradeNo } from './repository.js';
import { findOrder } from './card-repository.js';

const FORM_TYPE = 'application/x-www-form-urlencoded';

type EpayType = (typeof PAY_TYPES)[PaymentMethod];

/** The EPay type of a method as our console (zfb, wx) or the family's (alipay, wxpay) names it. */
export function payType(method: string): EpayType | undefined {
  if (Object.hasOwn(PAY_TYPES, method)) return PAY_TYPES[method as PaymentMethod];
  return Object.values(PAY_TYPES).find((type) => type === method);
}

const isEpayType = (method: string): boolean => Object.values(PAY_TYPES).some((type) => type === method);

/** The string-valued parameters of a query or form (a repeated name is not a valid parameter). */
function stringParams(source: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof source !== 'object' || source === null) return out;
  for (const [name, value] of Object.entries(source)) if (typeof value === 'string') out[name] = value;
  return out;
}

const withoutSlash = (url: string) => url.trim().replace(/\/+$/, '');

/**
 * Stores a pending order of `cents` and returns the signed form the browser posts to the provider:
 * its notice comes back to `notifyPath` on the callback address, the person to `returnPath`.
 */
export async function epayCheckout(
  ctx: GatewayContext,
  a: {
    userId: number;
    type: EpayType;
    cents: number;
    /** Quota a top-up credits (0 for a plan, which grants its subscription instead). */
    quota: number;
    planId?: number;
    /** The product name the provider shows. */
    name: string;
    notifyPath: string;
    returnPath: string;
  },
): Promise<{ data: Record<string, string>; url: string; trade_no: string }> {
  const { options } = ctx;
  const serverAddress = withoutSlash(options.string('ServerAddress'));
  const callbackAddress = withoutSlash(options.string('CustomCallbackAddress')) || serverAddress;
  if (!callbackAddress) throw fail('topup.no_server_address');
  const now = nowSeconds();
  const tradeNo = newTradeNo(a.userId, now);
  const form = purchaseForm({
    payAddress: withoutSlash(options.string('PayAddress')),
    pid: options.string('EpayId'),
    key: options.string('EpayKey'),
    type: a.type,
    tradeNo,
    notifyUrl: callbackAddress + a.notifyPath,
    returnUrl: (serverAddress || callbackAddress) + a.returnPath,
    name: a.name,
    money: centsToMoney(a.cents),
  });
  await insertOrder(ctx.db, {
    userId: a.userId,
    quota: a.quota,
    cents: a.cents,
    tradeNo,
    paymentMethod: a.type,
    now,
    ...(a.planId === undefined ? {} : { planId: a.planId }),
  });
  return { data: form.fields, url: form.url, trade_no: tradeNo };
}

/**
 * An EPay notice, for a top-up or a plan (the order says which): what the provider is told is
 * `success` once the notification is taken (done now or before).
 */
export async function takeEpayNotice(
  ctx: GatewayContext,
  request: FastifyRequest,
  params: Record<string, string>,
): Promise<'success' | 'fail'> {
  const { db, options } = ctx;
  if (!onlineTopUpEnabled(options)) return 'fail';
  if (params.pid !== options.string('EpayId') || !epayVerify(params, options.string('EpayKey'))) {
    request.log.warn({ out_trade_no: params.out_trade_no }, 'payment notification with a bad signature');
    return 'fail';
  }
  // A signed notice of anything but a completed payment is acknowledged and changes nothing.
  if (params.trade_status !== TRADE_SUCCESS) return 'success';
  const cents = moneyToCents(params.money ?? '');
  if (cents === null || !params.out_trade_no) return 'fail';
  // An EPay notice pays EPay orders only: never a card order, whatever the provider signs.
  const order = await findOrder(db, params.out_trade_no);
  if (order && !isEpayType(order.payment_method)) {
    request.log.warn(
      { out_trade_no: params.out_trade_no, order_method: order.payment_method },
      'payment notification refused: order of another method',
    );
    return 'fail';
  }
  const outcome = await completeOrder(db, ctx.dbKind, params.out_trade_no, cents, nowSeconds(), (quota, paid) =>
    logText(options, 'online_topup', { quota, paid: centsToMoney(paid) }),
  );
  switch (outcome.kind) {
    case 'credited':
      publishOrderPaid(ctx.bus, outcome.userId);
      return 'success';
    case 'already':
      return 'success';
    default:
      request.log.warn({ out_trade_no: params.out_trade_no, outcome: outcome.kind }, 'payment notification refused');
      return 'fail';
  }
}

/**
 * The provider's notice at `path` (GET or a form POST, as providers send either). Forms are parsed
 * here, in the registering plugin only.
 */
export function epayNoticeRoutes(app: FastifyInstance, ctx: GatewayContext, path: string): void {
  if (!app.hasContentTypeParser(FORM_TYPE)) {
    app.addContentTypeParser(FORM_TYPE, { parseAs: 'string', bodyLimit: 16 * 1024 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
  }
  app.get(path, async (request, reply) =>
    reply.type('text/plain').send(await takeEpayNotice(ctx, request, stringParams(request.query))),
  );
  app.post(path, async (request, reply) =>
    reply.type('text/plain').send(await takeEpayNotice(ctx, request, stringParams(request.body))),
  );
}
