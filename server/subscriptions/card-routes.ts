/**
 * Buying a plan by card: the order (with its plan_id) is made first, then the provider's checkout.
 * The provider's webhook pays it through the same path as a top-up, which for a plan order creates
 * the subscription; a refund or dispute of it ends that subscription.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { currentUser, requireUser } from '../auth/guard.js';
import { nowSeconds, type Db } from '../db/index.js';
import type { SubscriptionPlan } from '../db/types.js';
import { fail } from '../http/errors.js';
import { checkoutOrder, creemCheckout, stripeCheckout } from '../topup/card/routes.js';
import { CreemPayAnswer, StripePayAnswer } from '../topup/card/schemas.js';
import { stripeEnabled } from '../topup/card/settings.js';
import { insertOrder, newTradeNo } from '../topup/repository.js';
import { walletAnswer } from '../topup/wallet-answer.js';
import { findPlan } from './repository.js';
import { purchasable } from './orders.js';

const PURCHASE_REFUSALS = {
  plan_unknown: 'subscription.plan_not_found',
  plan_disabled: 'subscription.plan_disabled',
  plan_free: 'subscription.plan_free',
  plan_limit: 'subscription.purchase_limit',
} as const;

/** The plan the user may buy now, or the refusal saying why not. */
export async function planForPurchase(db: Db, userId: number, planId: number): Promise<SubscriptionPlan> {
  const plan = await purchasable(db, userId, planId);
  if (typeof plan !== 'string') return plan;
  const max = plan === 'plan_limit' ? ((await findPlan(db, planId))?.max_purchase_per_user ?? 0) : 0;
  throw fail(PURCHASE_REFUSALS[plan], plan === 'plan_limit' ? { max } : undefined);
}

const PlanBody = Type.Object({ plan_id: Type.Integer({ minimum: 1 }) });

export default async function subscriptionCardRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;
  const { db, options } = ctx;

  app.post(
    '/api/subscription/stripe/pay',
    { onRequest: requireUser, schema: { body: PlanBody, response: { 200: StripePayAnswer } } },
    async (request) =>
      walletAnswer(async () => {
        if (!stripeEnabled(options)) throw fail('topup.stripe_disabled');
        const user = currentUser(request);
        const plan = await planForPurchase(db, user.id, request.body.plan_id);
        // The session is charged in the Stripe currency: a plan priced in another cannot be sold by it.
        const currency = options.string('StripeCurrency') || 'usd';
        if (plan.currency.toLowerCase() !== currency.toLowerCase())
          throw fail('subscription.currency_mismatch', { plan: plan.currency, method: currency });
        const cents = Math.round(Number(plan.price_amount) * 100);
        if (cents < 1) throw fail('topup.money_too_low');
        const now = nowSeconds();
        const tradeNo = newTradeNo(user.id, now);
        await insertOrder(db, { userId: user.id, quota: 0, cents, tradeNo, paymentMethod: 'stripe', now, planId: plan.id });
        const payLink = await checkoutOrder(ctx, request, tradeNo, () =>
          stripeCheckout(ctx, { tradeNo, cents, user }, plan.title, Number(plan.price_amount)),
        );
        return { data: { pay_link: payLink } };
      }),
  );

  app.post(
    '/api/subscription/creem/pay',
    { onRequest: requireUser, schema: { body: PlanBody, response: { 200: CreemPayAnswer } } },
    async (request) =>
      walletAnswer(async () => {
        if (options.string('CreemApiKey') === '' || options.string('CreemWebhookSecret') === '')
          throw fail('topup.creem_disabled');
        const user = currentUser(request);
        const plan = await planForPurchase(db, user.id, request.body.plan_id);
        if (plan.creem_product_id === '') throw fail('subscription.no_creem_product');
        const price = Number(plan.price_amount);
        const cents = Math.round(price * 100);
        const now = nowSeconds();
        const tradeNo = newTradeNo(user.id, now);
        await insertOrder(db, { userId: user.id, quota: 0, cents, tradeNo, paymentMethod: 'creem', now, planId: plan.id });
        const product = { productId: plan.creem_product_id, name: plan.title, price, currency: plan.currency, quota: 0 };
        const url = await checkoutOrder(ctx, request, tradeNo, () => creemCheckout(ctx, { tradeNo, cents, user }, product));
        return { data: { checkout_url: url, order_id: tradeNo } };
      }),
  );
}
