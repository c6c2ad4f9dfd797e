/**
 * The wallet's online top-up over an EPay-compatible provider: POST /api/user/amount (the price),
 * POST /api/user/pay (an order and the signed form to post to the provider), and the provider's
 * notification GET|POST /api/user/epay/notify, which credits a paid order exactly once.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { currentUser, requireUser } from '../auth/guard.js';
import { nowSeconds } from '../db/index.js';
import { fail } from '../http/errors.js';
import { logText } from '../logs/messages.js';
import type { GatewayContext } from '../context.js';
import { publishOrderPaid } from './paid.js';
import { centsToMoney, epayVerify, moneyToCents, PAY_TYPES, purchaseForm, TRADE_SUCCESS, type PaymentMethod } from './epay.js';
import { onlineTopUpEnabled, quote } from './pricing.js';
import { completeOrder, insertOrder, newTradeNo } from './repository.js';
import { findOrder } from './card-repository.js';
import { AmountAnswer, AmountBody, PayAnswer, PayBody } from './schemas.js';
import { walletAnswer } from './wallet-answer.js';

export const NOTIFY_PATH = '/api/user/epay/notify';
/** Where the provider sends the person back after paying: the wallet, showing the new balance. */
const RETURN_PATH = '/topup';
const FORM_TYPE = 'application/x-www-form-urlencoded';

/** The EPay type of a method as our console (zfb, wx) or the family's (alipay, wxpay) names it. */
export function payType(method: string): (typeof PAY_TYPES)[PaymentMethod] | undefined {
  if (Object.hasOwn(PAY_TYPES, method)) return PAY_TYPES[method as PaymentMethod];
  return Object.values(PAY_TYPES).find((type) => type === method);
}

const isEpayType = (method: string): boolean => Object.values(PAY_TYPES).some((type) => type === method);

/** The string-valued parameters of a query or form (a repeated name is not a valid parameter). */
export function stringParams(source: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof source !== 'object' || source === null) return out;
  for (const [name, value] of Object.entries(source)) if (typeof value === 'string') out[name] = value;
  return out;
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

export default async function topupRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;
  const { db, options } = ctx;

  // Providers post notifications as a form; only this plugin's routes read that type.
  if (!app.hasContentTypeParser(FORM_TYPE)) {
    app.addContentTypeParser(FORM_TYPE, { parseAs: 'string', bodyLimit: 16 * 1024 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
  }

  const withoutSlash = (url: string) => url.trim().replace(/\/+$/, '');

  app.post(
    '/api/user/amount',
    { onRequest: requireUser, schema: { body: AmountBody, response: { 200: AmountAnswer } } },
    async (request) =>
      walletAnswer(() => {
        if (!onlineTopUpEnabled(options)) throw fail('topup.disabled');
        const { cents } = quote(options, request.body.amount, currentUser(request).group);
        return { data: centsToMoney(cents) };
      }),
  );

  app.post(
    '/api/user/pay',
    { onRequest: requireUser, schema: { body: PayBody, response: { 200: PayAnswer } } },
    async (request) =>
      walletAnswer(async () => {
        if (!onlineTopUpEnabled(options)) throw fail('topup.disabled');
        const user = currentUser(request);
        const type = payType(request.body.payment_method);
        if (!type) throw fail('topup.method_unknown');
        const { quota, cents } = quote(options, request.body.amount, user.group);
        const serverAddress = withoutSlash(options.string('ServerAddress'));
        const callbackAddress = withoutSlash(options.string('CustomCallbackAddress')) || serverAddress;
        if (!callbackAddress) throw fail('topup.no_server_address');
        const now = nowSeconds();
        const tradeNo = newTradeNo(user.id, now);
        const form = purchaseForm({
          payAddress: withoutSlash(options.string('PayAddress')),
          pid: options.string('EpayId'),
          key: options.string('EpayKey'),
          type,
          tradeNo,
          notifyUrl: callbackAddress + NOTIFY_PATH,
          returnUrl: (serverAddress || callbackAddress) + RETURN_PATH,
          name: `TUC${request.body.amount}`,
          money: centsToMoney(cents),
        });
        await insertOrder(db, { userId: user.id, quota, cents, tradeNo, paymentMethod: type, now });
        return { data: form.fields, url: form.url, trade_no: tradeNo };
      }),
  );

  app.get(NOTIFY_PATH, async (request, reply) =>
    reply.type('text/plain').send(await takeEpayNotice(ctx, request, stringParams(request.query))),
  );
  app.post(NOTIFY_PATH, async (request, reply) =>
    reply.type('text/plain').send(await takeEpayNotice(ctx, request, stringParams(request.body))),
  );
}
