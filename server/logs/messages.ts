/**
 * The words of the log rows the gateway writes about itself (balance changes, top-ups, sign-up
 * gifts, refunds, two-factor changes). `content` keeps them in Chinese, as the family's consoles
 * and scripts read them; `other.message` keeps the key and the values, so the console shows them
 * in its own language (src/i18n/<lang>/log.ts, `messages.<key>`). A value whose name is `quota` or
 * ends in `_quota` is a quota amount: the content shows it as the display settings say, the
 * console formats it itself.
 */
import type { OptionStore } from '../options/store.js';
import { formatQuota } from '../users/quota-format.js';

type Values = Record<string, string | number>;
/** Formats a quota amount for the content, with `digits` decimals where the row always had them. */
type Q = (quota: number, digits?: number) => string;

export const LOG_MESSAGES = {
  quota_set: (v, q) => `管理员将用户额度从 ${q(+v.from_quota!, 6)} 修改为 ${q(+v.to_quota!, 6)}`,
  quota_add: (v, q) => `管理员增加用户额度 ${q(+v.quota!, 6)}`,
  quota_subtract: (v, q) => `管理员减少用户额度 ${q(+v.quota!, 6)}`,
  quota_override: (v, q) => `管理员覆盖用户额度从 ${q(+v.from_quota!, 6)} 为 ${q(+v.to_quota!, 6)}`,
  signup_gift: (v, q) => `新用户注册赠送 ${q(+v.quota!)}`,
  invitee_gift: (v, q) => `使用邀请码赠送 ${q(+v.quota!)}`,
  inviter_reward: (v, q) => `邀请用户 ${v.username} 注册，奖励 ${q(+v.quota!)}`,
  redemption: (v, q) => `通过兑换码充值 ${q(+v.quota!)}，兑换码ID ${v.id}`,
  checkin: (v, q) => `用户签到，获得额度 ${q(+v.quota!)}`,
  online_topup: (v, q) => `使用在线充值成功，充值金额: ${q(+v.quota!)}，支付金额：¥${v.paid}`,
  card_topup: (v, q) => `使用 ${v.method} 充值成功，充值金额: ${q(+v.quota!)}，支付金额：${v.paid} ${v.currency}`,
  payment_refunded: (v, q) => `${v.method} 订单 ${v.trade_no} 已退款，扣回额度 ${q(+v.quota!)}`,
  payment_disputed: (v, q) => `${v.method} 订单 ${v.trade_no} 发生争议（拒付），扣回额度 ${q(+v.quota!)}`,
  topup_completed_by_admin: (v, q) => `管理员补单 ${v.trade_no}，充值金额: ${q(+v.quota!)}`,
  task_refund: (v) => `任务 ${v.task_id} 失败，退还额度 ${v.quota}（${v.reason}）`,
  video_settle_refund: (v) => `视频 ${v.task_id} 实际时长 ${v.seconds} 秒（预扣 ${v.asked} 秒），退还额度 ${v.quota}`,
  video_settle_charge: (v) => `视频 ${v.task_id} 实际时长 ${v.seconds} 秒（预扣 ${v.asked} 秒），补扣额度 ${v.quota}`,
  process_lost_charged: (v) => `服务进程中断，按已送达部分计费 ${v.quota}，预扣的其余额度已退还`,
  process_lost_refunded: (v) => `服务进程中断，未送达任何内容，预扣额度 ${v.reserved_quota} 已退还`,
  subscription_purchased: (v) => `购买订阅套餐 ${v.plan}，支付金额：¥${v.paid}`,
  subscription_bound: (v) => `管理员绑定订阅套餐 ${v.plan}`,
  twofa_enabled: () => '用户启用了两步验证',
  twofa_disabled: () => '用户停用了两步验证',
  twofa_backup_codes: () => '用户重新生成了两步验证备用码',
  twofa_reset: () => '管理员重置了用户的两步验证',
  passkey_reset: () => '管理员重置了用户的通行密钥',
} satisfies Record<string, (v: Values, q: Q) => string>;

export type LogMessageKey = keyof typeof LOG_MESSAGES;

export interface LogText {
  /** The Chinese line for the row's `content`. */
  content: string;
  /** For the row's `other`, beside whatever else it holds. */
  message: { key: LogMessageKey; values: Values };
}

/**
 * The content and the `other.message` of a row saying `key` with `values`; `options` (the quota
 * display settings) may be null for a message that shows no formatted amount.
 */
export function logText(options: OptionStore | null, key: LogMessageKey, values: Values = {}): LogText {
  const q: Q = (quota, digits) => (options ? formatQuota(options, quota, digits) : String(quota));
  return { content: LOG_MESSAGES[key](values, q), message: { key, values } };
}

/** A row's `content` and `other` for `text`, `other` also holding `extra` (admin_info, task_id…). */
export function withText(text: LogText, extra: object = {}): { content: string; other: string } {
  return { content: text.content, other: JSON.stringify({ ...extra, message: text.message }) };
}
