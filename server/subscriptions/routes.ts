/**
 * The family's /api/subscription/*: plans on sale, the caller's subscriptions and billing
 * preference, buying a plan over EPay (its notification completes the order through the one
 * top-up order flow), and the admin's plans, binding, listing and invalidating a user's
 * subscriptions (audited); and, beside them, the spend caps of tokens and users (caps-routes.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { fromParams, idOfData } from '../audit/targets.js';
import { currentUser, requireAdmin, requireUser } from '../auth/guard.js';
import { nowSeconds } from '../db/index.js';
import { ok } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import { Envelope } from '../http/schemas.js';
import { onlineTopUpEnabled } from '../topup/pricing.js';
import { epayCheckout, epayNoticeRoutes, payType } from '../topup/epay-checkout.js';
import { walletAnswer } from '../topup/wallet-answer.js';
import { findUserById } from '../users/repository.js';
import { publishUserChange } from '../users/user-cache.js';
import { publishSubscriptionChange } from './cache.js';
import subscriptionCardRoutes, { planForPurchase } from './card-routes.js';
import {
  billingPreference,
  createSubscription,
  deleteSubscription,
  endSubscription,
  findPlan,
  findSubscription,
  insertPlan,
  listPlans,
  listUserSubscriptions,
  setBillingPreference,
  SUB_ACTIVE,
  SUB_CANCELLED,
  updatePlan,
} from './repository.js';
import {
  BindBody,
  EmptyAnswer,
  EnabledBody,
  IdParams,
  PayAnswer,
  PayBody,
  PlanAnswer,
  PlanBody,
  PlanIdBody,
  PlansAnswer,
  PlanView,
  PreferenceAnswer,
  PreferenceBody,
  SelfAnswer,
  SubscriptionsAnswer,
} from './schemas.js';
import { planRow, planView, summaries } from './views.js';
import spendCapRoutes from './caps-routes.js';

const NOTIFY_PATH = '/api/subscription/epay/notify';
const RETURN_PATH = '/api/subscription/epay/return';
const CreatedAnswer = Envelope(Type.Object({ id: Type.Integer() }));
const PlanWrappedAnswer = Envelope(Type.Object({ plan: PlanView }));

export default async function subscriptionRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;
  const { db, options, bus } = ctx;
  await app.register(spendCapRoutes);
  await app.register(subscriptionCardRoutes);
  const changed = (userId: number) => {
    publishSubscriptionChange(bus, userId);
    publishUserChange(bus, userId);
  };

  async function userSubscriptions(userId: number) {
    const [rows, plans] = await Promise.all([listUserSubscriptions(db, userId), listPlans(db, false)]);
    return summaries(rows, plans);
  }

  // ---- The caller's own ----
  app.get('/api/subscription/plans', { onRequest: requireUser, schema: { response: { 200: PlansAnswer } } }, async () =>
    ok((await listPlans(db, true)).map((p) => ({ plan: planView(p) }))),
  );

  app.get('/api/subscription/self', { onRequest: requireUser, schema: { response: { 200: SelfAnswer } } }, async (request) => {
    const userId = currentUser(request).id;
    const now = nowSeconds();
    // Reading the caller's state starts any period that is due, as a call would.
    await ctx.subscriptions.get(userId);
    const all = await userSubscriptions(userId);
    const active = all.filter((s) => s.subscription.status === SUB_ACTIVE && s.subscription.end_time > now);
    return ok({ billing_preference: await billingPreference(db, userId), subscriptions: active, all_subscriptions: all });
  });

  app.put(
    '/api/subscription/self/preference',
    { onRequest: requireUser, schema: { body: PreferenceBody, response: { 200: PreferenceAnswer } } },
    async (request) => {
      const userId = currentUser(request).id;
      await setBillingPreference(db, userId, request.body.billing_preference);
      publishSubscriptionChange(bus, userId);
      return ok({ billing_preference: request.body.billing_preference });
    },
  );

  // ---- Buying over EPay ----
  app.post(
    '/api/subscription/epay/pay',
    { onRequest: requireUser, schema: { body: PayBody, response: { 200: PayAnswer } } },
    async (request) =>
      walletAnswer(async () => {
        if (!onlineTopUpEnabled(options)) throw fail('topup.disabled');
        const user = currentUser(request);
        const type = payType(request.body.payment_method);
        if (!type) throw fail('topup.method_unknown');
        const plan = await planForPurchase(db, user.id, request.body.plan_id);
        // Prices in dollars are paid in yuan at the top-up rate (Price); others as they are.
        const rate = plan.currency.toUpperCase() === 'USD' ? options.number('Price') : 1;
        const cents = Math.round(Number(plan.price_amount) * rate * 100);
        if (cents < 1) throw fail('topup.money_too_low');
        return epayCheckout(ctx, {
          userId: user.id,
          type,
          cents,
          quota: 0,
          planId: plan.id,
          name: `SUB${plan.id}`,
          notifyPath: NOTIFY_PATH,
          returnPath: RETURN_PATH,
        });
      }),
  );

  epayNoticeRoutes(app, ctx, NOTIFY_PATH);
  // The person comes back from the provider: to the wallet, where the new subscription shows.
  app.get(RETURN_PATH, async (_request, reply) => reply.redirect('/topup'));
  app.post(RETURN_PATH, async (_request, reply) => reply.redirect('/topup', 303));

  // ---- Admin: plans ----
  app.get('/api/subscription/admin/plans', { onRequest: requireAdmin, schema: { response: { 200: PlansAnswer } } }, async () =>
    ok((await listPlans(db, false)).map((p) => ({ plan: planView(p) }))),
  );

  // One plan, wrapped as in the list (the console's edit reads it).
  app.get(
    '/api/subscription/admin/plans/:id',
    { onRequest: requireAdmin, schema: { params: IdParams, response: { 200: PlanWrappedAnswer } } },
    async (request) => {
      const plan = await findPlan(db, request.params.id);
      if (!plan) throw fail('subscription.plan_not_found');
      return ok({ plan: planView(plan) });
    },
  );

  app.post(
    '/api/subscription/admin/plans',
    {
      onRequest: requireAdmin,
      schema: { body: PlanBody, response: { 200: PlanAnswer } },
      config: { audit: { subject: 'subscription_plan', action: 'create', created: idOfData } },
    },
    async (request) => {
      const id = await insertPlan(db, planRow(request.body.plan), nowSeconds());
      return ok(planView((await findPlan(db, id))!));
    },
  );

  app.put(
    '/api/subscription/admin/plans/:id',
    {
      onRequest: requireAdmin,
      schema: { params: IdParams, body: PlanBody, response: { 200: PlanAnswer } },
      config: { audit: { subject: 'subscription_plan', action: 'update', target: fromParams } },
    },
    async (request) => {
      const row = planRow(request.body.plan);
      if (!(await updatePlan(db, request.params.id, row, nowSeconds()))) throw fail('subscription.plan_not_found');
      return ok(planView((await findPlan(db, request.params.id))!));
    },
  );

  app.patch(
    '/api/subscription/admin/plans/:id',
    {
      onRequest: requireAdmin,
      schema: { params: IdParams, body: EnabledBody, response: { 200: PlanAnswer } },
      config: {
        audit: { subject: 'subscription_plan', action: (r) => (textEnabled(r) ? 'enable' : 'disable'), target: fromParams },
      },
    },
    async (request) => {
      const enabled = request.body.enabled ? 1 : 0;
      if (!(await updatePlan(db, request.params.id, { enabled }, nowSeconds()))) throw fail('subscription.plan_not_found');
      return ok(planView((await findPlan(db, request.params.id))!));
    },
  );

  // ---- Admin: a user's subscriptions ----
  async function bind(userId: number, planId: number): Promise<{ id: number }> {
    if (!(await findUserById(db, userId))) throw fail('subscription.user_not_found');
    const plan = await findPlan(db, planId);
    if (!plan) throw fail('subscription.plan_not_found');
    const now = nowSeconds();
    const id = await db.transaction().execute((trx) => createSubscription(trx, userId, plan, 'admin', now));
    changed(userId);
    return { id };
  }

  app.post(
    '/api/subscription/admin/bind',
    {
      onRequest: requireAdmin,
      schema: { body: BindBody, response: { 200: CreatedAnswer } },
      config: { audit: { subject: 'user_subscription', action: 'bind', created: idOfData } },
    },
    async (request) => ok(await bind(request.body.user_id, request.body.plan_id)),
  );

  app.get(
    '/api/subscription/admin/users/:id/subscriptions',
    { onRequest: requireAdmin, schema: { params: IdParams, response: { 200: SubscriptionsAnswer } } },
    async (request) => ok(await userSubscriptions(request.params.id)),
  );

  app.post(
    '/api/subscription/admin/users/:id/subscriptions',
    {
      onRequest: requireAdmin,
      schema: { params: IdParams, body: PlanIdBody, response: { 200: CreatedAnswer } },
      config: { audit: { subject: 'user_subscription', action: 'bind', created: idOfData } },
    },
    async (request) => ok(await bind(request.params.id, request.body.plan_id)),
  );

  app.post(
    '/api/subscription/admin/user_subscriptions/:id/invalidate',
    {
      onRequest: requireAdmin,
      schema: { params: IdParams, response: { 200: EmptyAnswer } },
      config: { audit: { subject: 'user_subscription', action: 'invalidate', target: fromParams } },
    },
    async (request) => {
      const sub = await findSubscription(db, request.params.id);
      if (!sub) throw fail('subscription.not_found');
      await db.transaction().execute((trx) => endSubscription(trx, sub.id, SUB_CANCELLED, nowSeconds()));
      changed(sub.user_id);
      return ok(null);
    },
  );

  app.delete(
    '/api/subscription/admin/user_subscriptions/:id',
    {
      onRequest: requireAdmin,
      schema: { params: IdParams, response: { 200: EmptyAnswer } },
      config: { audit: { subject: 'user_subscription', action: 'delete', target: fromParams } },
    },
    async (request) => {
      const sub = await findSubscription(db, request.params.id);
      if (!sub) throw fail('subscription.not_found');
      await db.transaction().execute((trx) => deleteSubscription(trx, sub.id, nowSeconds()));
      changed(sub.user_id);
      return ok(null);
    },
  );
}

const textEnabled = (request: FastifyRequest): boolean => (request.body as { enabled?: unknown } | undefined)?.enabled === true;
