/** Request and answer shapes of the wallet's online top-up. The console imports the `Static` types. */
import { Type, type Static } from '@sinclair/typebox';
import { Envelope } from '../http/schemas.js';

/**
 * POST /api/user/amount. `amount` is dollars when the site shows currency, else quota points;
 * `top_up_code` is part of the console's payload and has no effect.
 */
export const AmountBody = Type.Object({
  amount: Type.Number(),
  top_up_code: Type.Optional(Type.String({ maxLength: 200 })),
});
export type AmountBody = Static<typeof AmountBody>;

/** The price in yuan, two decimals. */
export const AmountAnswer = Envelope(Type.Number());

/** POST /api/user/pay: `payment_method` zfb (Alipay) or wx (WeChat Pay). */
export const PayBody = Type.Composite([AmountBody, Type.Object({ payment_method: Type.String({ maxLength: 16 }) })]);
export type PayBody = Static<typeof PayBody>;

/** The signed form the browser posts to `url` (the provider's submit.php), and the order number. */
export const PayForm = Type.Object({
  url: Type.String(),
  fields: Type.Record(Type.String(), Type.String()),
  trade_no: Type.String(),
});
export type PayForm = Static<typeof PayForm>;

export const PayAnswer = Envelope(PayForm);
