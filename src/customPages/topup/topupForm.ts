/**
 * The wallet's online top-up as pure functions: the amount rules (a whole number; below 1
 * becomes 1), what an amount credits, and handing the person to the payment provider (a signed
 * form for EPay, a checkout page for Stripe and Creem), for top-ups and plans alike.
 */

/** The typed amount as a whole number of at least 1. */
export function normalizeAmount(value: unknown): number {
  const amount = Math.trunc(Number(value));
  return Number.isFinite(amount) && amount >= 1 ? amount : 1;
}

/** The amount the field starts with: the site's minimum, and never below 1. */
export function initialAmount(minTopUp: number): number {
  return normalizeAmount(minTopUp);
}

/** The quota an amount credits: dollars × quota per unit when the site shows currency, else the amount itself. */
export function creditedQuota(amount: number, displayInCurrency: boolean, quotaPerUnit: number): number {
  return displayInCurrency ? amount * quotaPerUnit : amount;
}

/**
 * Posts `fields` to the provider's `url` as a form in this tab, as the EPay checkout expects; the
 * provider sends the person back to the wallet afterwards. Refuses anything but an http(s) URL.
 */
export function submitPayment(url: string, fields: Record<string, string>): boolean {
  let target: URL;
  try {
    target = new URL(url, window.location.href);
  } catch {
    return false;
  }
  if (target.protocol !== 'https:' && target.protocol !== 'http:') return false;
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = target.toString();
  form.style.display = 'none';
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
  return true;
}

/** Sends the person to a card provider's checkout page; only an http(s) page is followed. */
export function followCheckout(url: string): boolean {
  if (!/^https?:\/\//i.test(url)) return false;
  window.location.assign(url);
  return true;
}

/** The wallet's label for an EPay method named as /api/user/topup/info names it (alipay, wxpay). */
export const EPAY_LABELS: Record<string, string> = { alipay: 'wallet.online.alipay', wxpay: 'wallet.online.wechat' };
