/** Request and answer shapes of the card payments (Stripe, Creem) and the admin's completion of an order. */
import { Type, type Static } from '@sinclair/typebox';
import { Envelope } from '../../http/schemas.js';
import { WalletAnswer } from '../schemas.js';

/** POST /api/user/stripe/amount: `amount` as for EPay (dollars when the site shows currency, else quota points). */
export const StripeAmountBody = Type.Object({ amount: Type.Number() });

/** POST /api/user/stripe/pay: `payment_method` must be "stripe". */
export const StripePayBody = Type.Object({
  amount: Type.Number(),
  payment_method: Type.String({ maxLength: 16 }),
});
export type StripePayBody = Static<typeof StripePayBody>;

/** The Checkout page to send the person to. */
export const StripePayAnswer = WalletAnswer(Type.Object({ pay_link: Type.String() }));

/** POST /api/user/creem/pay: a product of CreemProducts; `payment_method` must be "creem". */
export const CreemPayBody = Type.Object({
  product_id: Type.String({ maxLength: 128 }),
  payment_method: Type.String({ maxLength: 16 }),
});

/** The checkout page and the order number. */
export const CreemPayAnswer = WalletAnswer(Type.Object({ checkout_url: Type.String(), order_id: Type.String() }));

/** POST /api/user/topup/complete (admins): marks a pending order paid and credits it. */
export const CompleteBody = Type.Object({ trade_no: Type.String({ minLength: 1, maxLength: 128 }) });
export const CompleteAnswer = Envelope(Type.Null());
