/**
 * Card payments beside EPay, under the family's routes: Stripe (POST /api/user/stripe/amount, the
 * price; POST /api/user/stripe/pay, a Checkout Session) and Creem (POST /api/user/creem/pay, a
 * checkout of a fixed product), their webhooks (POST /api/stripe/webhook, /api/creem/webhook), and
 * the admin's completion of a pending order by hand (POST /api/user/topup/complete, audited); the
 * webhooks are in webhook-routes.ts.
 *
 * The checkout makers take (order, title, amount) so subscription plans sold by card reuse them.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { currentUser, requireAdmin, requireUser } from '../../auth/guard.js';
import type { GatewayContext } from '../../context.js';
import { nowSeconds } from '../../db/index.js';
import type { User } from '../../db/types.js';
import { fail } from '../../http/errors.js';
import { ok } from '../../http/envelope.js';
import { logText } from '../../logs/messages.js';
import { parseCreemProducts, type CreemProduct } from '../../options/payment-options.js';
import { publishOrderPaid } from '../paid.js';
import { centsToMoney } from '../epay.js';
import { quote } from '../pricing.js';
import { completeOrder, insertOrder, newTradeNo } from '../repository.js';
import { walletAnswer } from '../wallet-answer.js';
import { closeOrder, findOrder, ORDER_FAILED } from '../card-repository.js';
import { createCreemCheckout, CREEM_API, CREEM_TEST_API } from './creem.js';
import { stripeEnabled, creemEnabled, stripeTariff } from './settings.js';
import {
  CompleteAnswer,
  CompleteBody,
  CreemPayAnswer,
  CreemPayBody,
  StripeAmountBody,
  StripePayAnswer,
  StripePayBody,
} from './schemas.js';
import { createStripeCheckout, stripeClient } from './stripe.js';
import cardWebhookRoutes from './webhook-routes.js';

/** Where the person lands after paying or giving up: the wallet. */
const WALLET_PATH = '/topup';

/** An order about to be paid by card: its number, price in cents, and who pays. */
export interface CardOrder {
  tradeNo: string;
  cents: number;
  user: User;
}

function siteAddress(ctx: GatewayContext): string {
  const address = ctx.options.string('ServerAddress').trim().replace(/\/+$/, '');
  if (!address) throw fail('topup.no_server_address');
  return address;
}

/** The Stripe Checkout page for `order`, sold as `title`; `amount` is what the person asked for. */
export async function stripeCheckout(ctx: GatewayContext, order: CardOrder, title: string, amount: number): Promise<string> {
  const { options } = ctx;
  const wallet = siteAddress(ctx) + WALLET_PATH;
  const client = stripeClient(options.string('StripeApiSecret'), ctx.config.paymentApiBases.stripe);
  return createStripeCheckout(client, { tradeNo: order.tradeNo, cents: order.cents, email: order.user.email ?? '' }, title, {
    currency: options.string('StripeCurrency'),
    successUrl: `${wallet}?paid=${encodeURIComponent(order.tradeNo)}&amount=${amount}`,
    cancelUrl: wallet,
    promotionCodes: options.bool('StripePromotionCodesEnabled'),
  });
}

/** The Creem checkout page for `order`, a purchase of `product`. */
export async function creemCheckout(ctx: GatewayContext, order: CardOrder, product: CreemProduct): Promise<string> {
  const { options } = ctx;
  const apiBase = ctx.config.paymentApiBases.creem ?? (options.bool('CreemTestMode') ? CREEM_TEST_API : CREEM_API);
  return createCreemCheckout({ tradeNo: order.tradeNo, email: order.user.email ?? '' }, product, {
    apiBase,
    apiKey: options.string('CreemApiKey'),
    successUrl: siteAddress(ctx) + WALLET_PATH,
  });
}

/**
 * A checkout the provider would not make is the wallet's refusal (why is in the server log only),
 * and its order, made first so no webhook can arrive before it, ends as failed.
 */
export async function checkoutOrder<T>(
  ctx: GatewayContext,
  request: FastifyRequest,
  tradeNo: string,
  make: () => Promise<T>,
): Promise<T> {
  try {
    return await make();
  } catch (err) {
    request.log.warn({ trade_no: tradeNo, err: err instanceof Error ? err.message : String(err) }, 'payment checkout failed');
    const order = await findOrder(ctx.db, tradeNo);
    if (order) await closeOrder(ctx.db, order.id, ORDER_FAILED, nowSeconds());
    throw fail('topup.checkout_failed');
  }
}

export default async function cardPaymentRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;
  const { db, options } = ctx;

  app.post(
    '/api/user/stripe/amount',
    { onRequest: requireUser, schema: { body: StripeAmountBody, response: { 200: StripePayAnswer } } },
    async (request) =>
      walletAnswer(() => {
        if (!stripeEnabled(options)) throw fail('topup.stripe_disabled');
        const { cents } = quote(options, request.body.amount, currentUser(request).group, stripeTariff(options));
        return { data: centsToMoney(cents) };
      }),
  );

  app.post(
    '/api/user/stripe/pay',
    { onRequest: requireUser, schema: { body: StripePayBody, response: { 200: StripePayAnswer } } },
    async (request) =>
      walletAnswer(async () => {
        if (!stripeEnabled(options)) throw fail('topup.stripe_disabled');
        if (request.body.payment_method !== 'stripe') throw fail('topup.channel_unsupported');
        const user = currentUser(request);
        const { amount } = request.body;
        const { quota, cents } = quote(options, amount, user.group, stripeTariff(options));
        const now = nowSeconds();
        const tradeNo = newTradeNo(user.id, now);
        await insertOrder(db, { userId: user.id, quota, cents, tradeNo, paymentMethod: 'stripe', now });
        const payLink = await checkoutOrder(ctx, request, tradeNo, () =>
          stripeCheckout(ctx, { tradeNo, cents, user }, `TUC${amount}`, amount),
        );
        return { data: { pay_link: payLink } };
      }),
  );

  app.post(
    '/api/user/creem/pay',
    { onRequest: requireUser, schema: { body: CreemPayBody, response: { 200: CreemPayAnswer } } },
    async (request) =>
      walletAnswer(async () => {
        if (!creemEnabled(options)) throw fail('topup.creem_disabled');
        if (request.body.payment_method !== 'creem') throw fail('topup.channel_unsupported');
        if (!request.body.product_id) throw fail('topup.product_required');
        const product = (parseCreemProducts(options.string('CreemProducts')) ?? []).find(
          (p) => p.productId === request.body.product_id,
        );
        if (!product) throw fail('topup.product_unknown');
        const user = currentUser(request);
        const now = nowSeconds();
        const tradeNo = newTradeNo(user.id, now);
        const cents = Math.round(product.price * 100);
        await insertOrder(db, { userId: user.id, quota: product.quota, cents, tradeNo, paymentMethod: 'creem', now });
        const url = await checkoutOrder(ctx, request, tradeNo, () => creemCheckout(ctx, { tradeNo, cents, user }, product));
        return { data: { checkout_url: url, order_id: tradeNo } };
      }),
  );

  app.post(
    '/api/user/topup/complete',
    {
      onRequest: requireAdmin,
      schema: { body: CompleteBody, response: { 200: CompleteAnswer } },
      config: {
        audit: {
          subject: 'user',
          action: 'topup_complete',
          target: async (request) => {
            const order = await findOrder(db, (request.body as { trade_no: string }).trade_no);
            return order ? [order.user_id] : [];
          },
          detail: (request) => ({ trade_no: (request.body as { trade_no: string }).trade_no }),
        },
      },
    },
    async (request) => {
      const order = await findOrder(db, request.body.trade_no);
      if (!order) throw fail('topup.order_not_found');
      const outcome = await completeOrder(db, ctx.dbKind, order.trade_no, Math.round(order.money * 100), nowSeconds(), (quota) =>
        logText(options, 'topup_completed_by_admin', { quota, trade_no: order.trade_no }),
      );
      if (outcome.kind !== 'credited') throw fail('topup.order_not_pending');
      publishOrderPaid(ctx.bus, outcome.userId);
      return ok(null);
    },
  );
  await app.register(cardWebhookRoutes);
}
