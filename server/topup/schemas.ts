/** Request and answer shapes of the wallet's online top-up. The console imports the `Static` types. */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Envelope, Page } from '../http/schemas.js';

/**
 * POST /api/user/amount. `amount` is dollars when the site shows currency, else quota points;
 * `top_up_code` is part of the console's payload and has no effect.
 */
export const AmountBody = Type.Object({
  amount: Type.Number(),
  top_up_code: Type.Optional(Type.String({ maxLength: 200 })),
});
export type AmountBody = Static<typeof AmountBody>;

/**
 * The family's wallet reads `message` ("success" or "error") and `data`: the price in yuan as text
 * with two decimals, or the refusal's words (its console shows "错误：" + data). `success`, `code`
 * and `params` are there for our console, as on every other answer.
 */
export const WalletAnswer = <T extends TSchema>(data: T) =>
  Type.Object({
    success: Type.Boolean(),
    message: Type.Union([Type.Literal('success'), Type.Literal('error')]),
    data: Type.Union([data, Type.String()]),
    code: Type.Optional(Type.String()),
    params: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]))),
  });

export const AmountAnswer = WalletAnswer(Type.String());

/**
 * POST /api/user/pay: `payment_method` zfb (Alipay) or wx (WeChat Pay) as our console names them,
 * or alipay / wxpay as the family's consoles do (the `type` of GET /api/user/topup/info's methods).
 */
export const PayBody = Type.Composite([AmountBody, Type.Object({ payment_method: Type.String({ maxLength: 16 }) })]);
export type PayBody = Static<typeof PayBody>;

/** The signed form the browser posts to `url` (the provider's submit.php), and the order number. */
export const PayForm = Type.Object({
  url: Type.String(),
  fields: Type.Record(Type.String(), Type.String()),
  trade_no: Type.String(),
});
export type PayForm = Static<typeof PayForm>;

/**
 * POST /api/user/pay as the family answers it: `data` the signed fields, `url` where the browser
 * posts them, and the order number beside them (not in `data`: every field there is posted).
 */
export const PayAnswer = Type.Composite([
  WalletAnswer(Type.Record(Type.String(), Type.String())),
  Type.Object({ url: Type.Optional(Type.String()), trade_no: Type.Optional(Type.String()) }),
]);

/** A payment method the wallet offers: `type` is what POST /api/user/pay takes as `payment_method`. */
export const PayMethod = Type.Object({ name: Type.String(), type: Type.String(), min_topup: Type.Optional(Type.String()) });

/**
 * GET /api/user/topup/info, the family's wallet settings: whether online top-up is on and with
 * which methods (EPay's types, and Stripe's when it is on), the least amounts, Creem's products,
 * preset amounts and discounts by amount (payment_setting.amount_options / amount_discount).
 */
export const TopUpInfo = Type.Object({
  enable_online_topup: Type.Boolean(),
  enable_stripe_topup: Type.Boolean(),
  enable_creem_topup: Type.Boolean(),
  pay_methods: Type.Array(PayMethod),
  min_topup: Type.Number(),
  stripe_min_topup: Type.Number(),
  /** CreemProducts as JSON text ([] when Creem is off): productId, name, price, currency, quota. */
  creem_products: Type.String(),
  amount_options: Type.Array(Type.Number()),
  discount: Type.Record(Type.String(), Type.Number()),
});
export type TopUpInfo = Static<typeof TopUpInfo>;

/** An online top-up order. `amount` is the quota it credits (once paid), `money` the yuan to pay. */
export const TopUpView = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  /** The orderer's name ("" when the account is gone). */
  username: Type.String(),
  amount: Type.Number(),
  money: Type.Number(),
  trade_no: Type.String(),
  /** alipay or wxpay (EPay), stripe or creem. */
  payment_method: Type.String(),
  /** pending, success, failed, expired, refunded or disputed. */
  status: Type.String(),
  create_time: Type.Number(),
  /** 0 until paid. */
  complete_time: Type.Number(),
});
export type TopUpView = Static<typeof TopUpView>;

export const TopUpPage = Page(TopUpView);
export type TopUpPage = Static<typeof TopUpPage>;

/** `keyword`: part of the order number (wildcards taken literally). */
export const TopUpPageQuery = Type.Object({
  p: Type.Optional(Type.Integer()),
  page_size: Type.Optional(Type.Integer()),
  keyword: Type.Optional(Type.String({ maxLength: 128 })),
  /** Admins' list only: one payment method, one status. */
  payment_method: Type.Optional(Type.String({ maxLength: 16 })),
  status: Type.Optional(Type.String({ maxLength: 16 })),
});
export type TopUpPageQuery = Static<typeof TopUpPageQuery>;

export const TopUpInfoAnswer = Envelope(TopUpInfo);
export const TopUpPageAnswer = Envelope(TopUpPage);
