/**
 * Quota warnings. After a relayed request is billed, a user whose remaining quota fell below their
 * threshold (their setting quota_warning_threshold, else the QuotaRemindThreshold option) is told,
 * at most once per 2 hours:
 * - by e-mail (notify_type email): to notification_email, else the account's address;
 * - by webhook (notify_type webhook): a POST of a JSON body to the user's https webhook_url,
 *   through the SSRF-safe fetcher; with a webhook_secret the body is signed, the hex HMAC-SHA256
 *   of the exact body under the secret in `X-Webhook-Signature`.
 * The check runs after the answer and never delays or fails it. The time of the last warning lives
 * in ctx.kv, shared by every gateway process on one Redis; an atomic claim (takeTurn) lets only one
 * process send each warning. Settings are cached a minute per user
 * and dropped when the user changes (bus topic 'user').
 */
import { createHmac } from 'node:crypto';
import type { GatewayContext } from '../context.js';
import { USER_TOPIC } from '../users/user-cache.js';
import { formatQuota } from '../users/quota-format.js';
import { findUserColumns } from '../users/repository.js';
import { safeFetch } from '../http/safe-fetch.js';

export const WARNING_INTERVAL_MS = 2 * 3600 * 1000;
export const SIGNATURE_HEADER = 'X-Webhook-Signature';
const SETTINGS_TTL_MS = 60_000;

/** The clock the 2-hour spacing is measured on (tests move it forward). */
export const warningClock = { now: (): number => Date.now() };

interface NotifyPrefs {
  type: 'email' | 'webhook';
  /** The user's own threshold, or null for the site's QuotaRemindThreshold. */
  threshold: number | null;
  email: string;
  webhookUrl: string;
  webhookSecret: string;
}

export interface QuotaWarning {
  userId: number;
  username: string;
  quota: number;
  threshold: number;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function prefsFrom(setting: string | null, accountEmail: string): NotifyPrefs {
  let parsed: Record<string, unknown> = {};
  try {
    const value: unknown = JSON.parse(setting || '{}');
    if (value && typeof value === 'object' && !Array.isArray(value)) parsed = value as Record<string, unknown>;
  } catch {
    parsed = {};
  }
  const text = (key: string) => (typeof parsed[key] === 'string' ? (parsed[key] as string).trim() : '');
  const threshold = parsed.quota_warning_threshold;
  return {
    type: parsed.notify_type === 'webhook' ? 'webhook' : 'email',
    threshold: typeof threshold === 'number' && Number.isFinite(threshold) && threshold > 0 ? threshold : null,
    email: text('notification_email') || accountEmail,
    webhookUrl: text('webhook_url'),
    webhookSecret: typeof parsed.webhook_secret === 'string' ? parsed.webhook_secret : '',
  };
}

/** The warning's words, shared by the mail and the webhook. */
function describe(ctx: GatewayContext, w: QuotaWarning): { title: string; content: string } {
  return {
    title: `${ctx.options.string('SystemName')} 额度预警`,
    content:
      `您的剩余额度为 ${formatQuota(ctx.options, w.quota)}，已低于预警阈值 ${formatQuota(ctx.options, w.threshold)}，` +
      '请及时充值，以免服务中断。',
  };
}

/** The webhook body and its headers (signed when the user set a secret). */
export function webhookRequest(
  ctx: GatewayContext,
  w: QuotaWarning,
  secret: string,
  nowMs: number,
): { body: string; headers: Record<string, string> } {
  const { title, content } = describe(ctx, w);
  const body = JSON.stringify({
    type: 'quota_exceed',
    title,
    content,
    values: { user_id: w.userId, username: w.username, remaining_quota: w.quota, threshold: w.threshold },
    timestamp: Math.floor(nowMs / 1000),
  });
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (secret) headers[SIGNATURE_HEADER] = createHmac('sha256', secret).update(body).digest('hex');
  return { body, headers };
}

class QuotaWarnings {
  private prefs = new Map<number, { value: NotifyPrefs | null; expires: number }>();
  /** Users being checked right now by this process. */
  private busy = new Set<number>();

  constructor(private readonly ctx: GatewayContext) {
    ctx.bus.on(USER_TOPIC, (payload) => {
      if (payload === '') this.prefs.clear();
      else this.prefs.delete(Number(payload));
    });
  }

  private async prefsOf(userId: number): Promise<NotifyPrefs | null> {
    const hit = this.prefs.get(userId);
    if (hit && hit.expires > Date.now()) return hit.value;
    const row = await findUserColumns(this.ctx.db, userId, ['setting', 'email']);
    const value = row ? prefsFrom(row.setting, row.email) : null;
    if (this.prefs.size >= 10_000) this.prefs.clear();
    this.prefs.set(userId, { value, expires: Date.now() + SETTINGS_TTL_MS });
    return value;
  }

  private deliverable(p: NotifyPrefs): boolean {
    if (p.type === 'webhook') return p.webhookUrl.startsWith('https://');
    return p.email !== '' && this.ctx.mailer.configured;
  }

  /**
   * False when what this process holds in memory already rules a warning out (the common case, read
   * without a promise: this runs after every charge); true when it must be looked into.
   */
  mayWarn(userId: number): boolean {
    if (this.busy.has(userId)) return false;
    const user = this.ctx.users.peek(userId);
    const prefs = this.prefs.get(userId);
    if (!user || !prefs || prefs.expires <= Date.now()) return true;
    if (user.deleted || !prefs.value) return false;
    const threshold = prefs.value.threshold ?? this.ctx.options.number('QuotaRemindThreshold');
    return threshold > 0 && user.quota < threshold && this.deliverable(prefs.value);
  }

  async check(userId: number): Promise<void> {
    const { ctx } = this;
    if (this.busy.has(userId)) return;
    // The cached balance (lowered by this process's debits) rules out most calls without a query.
    const user = await ctx.users.get(userId);
    if (!user || user.deleted) return;
    const prefs = await this.prefsOf(userId);
    if (!prefs) return;
    const threshold = prefs.threshold ?? ctx.options.number('QuotaRemindThreshold');
    if (!(threshold > 0) || user.quota >= threshold || !this.deliverable(prefs)) return;
    this.busy.add(userId);
    try {
      const key = `quota-warning:${userId}`;
      const now = warningClock.now();
      const last = Number(await ctx.kv.get(key));
      if (last && now - last < WARNING_INTERVAL_MS) return;
      const row = await findUserColumns(ctx.db, userId, ['quota', 'username']);
      if (!row || row.quota >= threshold) return;
      if (!(await this.takeTurn(key, now))) return;
      await this.send(prefs, { userId, username: row.username, quota: row.quota, threshold }, now);
    } finally {
      this.busy.delete(userId);
    }
  }

  /**
   * Marks a warning as sent now, unless another process did within the interval. Processes on one
   * Redis may get here at the same instant: a short claim lets one at a time look and mark. Marked
   * before sending, so a slow or failing receiver is not asked again within the interval.
   */
  private async takeTurn(key: string, now: number): Promise<boolean> {
    const claim = `${key}:claim`;
    if (!(await this.ctx.kv.setIfAbsent(claim, '1', 60))) return false;
    try {
      const last = Number(await this.ctx.kv.get(key));
      if (last && now - last < WARNING_INTERVAL_MS) return false;
      await this.ctx.kv.set(key, String(now), WARNING_INTERVAL_MS / 1000);
      return true;
    } finally {
      await this.ctx.kv.delete(claim);
    }
  }

  private async send(p: NotifyPrefs, w: QuotaWarning, now: number): Promise<void> {
    const { ctx } = this;
    if (p.type === 'email') {
      const { title, content } = describe(ctx, w);
      const server = ctx.options.string('ServerAddress');
      const link = server ? `${server}/topup` : '';
      const html =
        `<p>${escapeHtml(content)}</p>` +
        (link ? `<p>充值地址：<a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` : '') +
        '<p>此邮件每 2 小时最多发送一次。</p>';
      await ctx.mailer.send(p.email, title, html);
      return;
    }
    const { body, headers } = webhookRequest(ctx, w, p.webhookSecret, now);
    const res = await safeFetch(p.webhookUrl, {
      method: 'POST',
      headers,
      body,
      timeoutMs: 10_000,
      maxBytes: 64 * 1024,
    });
    if (res.status < 200 || res.status >= 300) throw new Error(`webhook answered ${res.status}`);
  }
}

const warners = new WeakMap<GatewayContext, QuotaWarnings>();

/** Checks the user's balance after a charge and warns when due; returns at once, never throws. */
export function warnIfLowQuota(ctx: GatewayContext, userId: number): void {
  let warner = warners.get(ctx);
  if (!warner) {
    warner = new QuotaWarnings(ctx);
    warners.set(ctx, warner);
  }
  if (!warner.mayWarn(userId)) return;
  const run = warner.check(userId).catch((err: unknown) => {
    ctx.log.warn(`quota warning for user ${userId} not delivered: ${(err as Error).message}`);
  });
  const running = inFlight.get(ctx) ?? new Set<Promise<void>>();
  inFlight.set(ctx, running);
  running.add(run);
  void run.finally(() => running.delete(run));
}

const inFlight = new WeakMap<GatewayContext, Set<Promise<void>>>();

/** Resolves once every warning check started so far has finished (tests, shutdown). */
export async function quotaWarningsIdle(ctx: GatewayContext): Promise<void> {
  await Promise.all([...(inFlight.get(ctx) ?? [])]);
}
