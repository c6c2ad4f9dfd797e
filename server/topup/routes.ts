/**
 * The wallet's online top-up over an EPay-compatible provider: POST /api/user/amount (the price),
 * POST /api/user/pay (an order and the signed form to post to the provider), and the provider's
 * notification GET|POST /api/user/epay/notify, which credits a paid order exactly once.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { currentUser, requireUser } from '../auth/guard.js';
import { fail } from '../http/errors.js';
import { centsToMoney } from './epay.js';
import { epayCheckout, epayNoticeRoutes, payType } from './epay-checkout.js';
import { onlineTopUpEnabled, quote } from './pricing.js';
import { AmountAnswer, AmountBody, PayAnswer, PayBody } from './schemas.js';
import { walletAnswer } from './wallet-answer.js';

const NOTIFY_PATH = '/api/user/epay/notify';
/** Where the provider sends the person back after paying: the wallet, showing the new balance. */
const RETURN_PATH = '/topup';

export default async function topupRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;
  const { options } = ctx;

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
        return epayCheckout(ctx, {
          userId: user.id,
          type,
          cents,
          quota,
          name: `TUC${request.body.amount}`,
          notifyPath: NOTIFY_PATH,
          returnPath: RETURN_PATH,
        });
      }),
  );

  epayNoticeRoutes(app, ctx, NOTIFY_PATH);
}
