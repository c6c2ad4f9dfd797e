/**
 * What the family's wallet and admin screens read about top-up: GET /api/user/topup/info (the
 * wallet's settings, any signed-in user), GET /api/user/topup/self (the caller's own orders) and
 * GET /api/user/topup (every order, admins), the lists paged and searchable by order number.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { currentUser, requireAdmin, requireUser } from '../auth/guard.js';
import type { Db } from '../db/index.js';
import { ok, pageParams } from '../http/envelope.js';
import type { OptionStore } from '../options/store.js';
import { findUsernames } from '../users/repository.js';
import { PAY_TYPES } from './epay.js';
import { onlineTopUpEnabled } from './pricing.js';
import { creemEnabled, creemProducts, stripeEnabled } from './card/settings.js';
import { countOrders, listOrders, type OrderFilter } from './repository.js';
import { TopUpInfoAnswer, TopUpPageAnswer, TopUpPageQuery, type TopUpInfo, type TopUpPage } from './schemas.js';

/** What each EPay type is called on the wallet. */
const METHOD_NAMES: Record<(typeof PAY_TYPES)[keyof typeof PAY_TYPES], string> = { alipay: '支付宝', wxpay: '微信' };

const numberList = (v: unknown): number[] => (Array.isArray(v) ? v.filter((n): n is number => typeof n === 'number') : []);
const numberMap = (v: unknown): Record<string, number> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v).filter((e): e is [string, number] => typeof e[1] === 'number'))
    : {};

export function topUpInfo(options: OptionStore): TopUpInfo {
  const enabled = onlineTopUpEnabled(options);
  const stripe = stripeEnabled(options);
  const creem = creemEnabled(options);
  const epayMethods = enabled ? Object.values(PAY_TYPES).map((type) => ({ name: METHOD_NAMES[type], type })) : [];
  const stripeMin = options.number('StripeMinTopUp');
  return {
    enable_online_topup: enabled,
    enable_stripe_topup: stripe,
    enable_creem_topup: creem,
    pay_methods: stripe ? [...epayMethods, { name: 'Stripe', type: 'stripe', min_topup: String(stripeMin) }] : epayMethods,
    min_topup: options.number('MinTopUp'),
    stripe_min_topup: stripeMin,
    // The family's console parses this text itself.
    creem_products: JSON.stringify(creem ? creemProducts(options) : []),
    amount_options: numberList(options.json<unknown>('payment_setting.amount_options')),
    discount: numberMap(options.json<unknown>('payment_setting.amount_discount')),
  };
}

async function orderPage(db: Db, filter: OrderFilter, query: TopUpPageQuery): Promise<TopUpPage> {
  const { page, pageSize, offset } = pageParams(query);
  const [total, rows] = await Promise.all([countOrders(db, filter), listOrders(db, filter, pageSize, offset)]);
  const names = await findUsernames(
    db,
    rows.map((r) => r.user_id),
  );
  const items = rows.map((r) => ({
    id: r.id,
    user_id: r.user_id,
    username: names.get(r.user_id) ?? '',
    amount: Number(r.amount),
    money: Number(r.money),
    trade_no: r.trade_no,
    payment_method: r.payment_method,
    status: r.status,
    create_time: Number(r.create_time),
    complete_time: Number(r.complete_time),
  }));
  return { items, total, page, page_size: pageSize };
}

export default async function topupOrderRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { db, options } = app.ctx;
  const keyword = (query: TopUpPageQuery) => (query.keyword ?? '').trim();

  app.get('/api/user/topup/info', { onRequest: requireUser, schema: { response: { 200: TopUpInfoAnswer } } }, async () =>
    ok(topUpInfo(options)),
  );

  app.get(
    '/api/user/topup/self',
    { onRequest: requireUser, schema: { querystring: TopUpPageQuery, response: { 200: TopUpPageAnswer } } },
    async (request) =>
      ok(await orderPage(db, { userId: currentUser(request).id, keyword: keyword(request.query) }, request.query)),
  );

  for (const url of ['/api/user/topup', '/api/user/topup/']) {
    app.get(
      url,
      { onRequest: requireAdmin, schema: { querystring: TopUpPageQuery, response: { 200: TopUpPageAnswer } } },
      async (request) =>
        ok(
          await orderPage(
            db,
            { keyword: keyword(request.query), method: request.query.payment_method, status: request.query.status },
            request.query,
          ),
        ),
    );
  }
}
