/**
 * A local stand-in for an EPay-compatible payment provider. It takes the checkout form at
 * `POST /submit.php` (checking its MD5 signature with its own signer, not the gateway's), keeps the
 * order, and on `pay()` sends the merchant's notify_url the signed GET notification a real provider
 * sends once the person has paid. Tests also use it to send forged, tampered and replayed ones.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SubmittedOrder {
  fields: Record<string, string>;
  /** The provider's own trade number for the order. */
  tradeNo: string;
}

export interface NotifyOptions {
  /** Sign with this key instead of the merchant's (a forgery). */
  key?: string;
  /** Change these fields after signing (tampering). */
  tamper?: Record<string, string>;
  method?: 'GET' | 'POST';
}

export interface PaymentStandIn {
  /** Base address, what the gateway's PayAddress holds. */
  url: string;
  pid: string;
  key: string;
  orders: Map<string, SubmittedOrder>;
  /** Posts a checkout form like the browser does; answers the status and body the person sees. */
  submit(url: string, fields: Record<string, string>): Promise<{ status: number; body: string }>;
  /** The notification of a completed payment for a submitted order, signed, with `extra` fields changed before signing. */
  paidNotice(outTradeNo: string, extra?: Record<string, string>): Record<string, string>;
  /** Sends a notification to `notifyUrl`; answers what the merchant replied. */
  notify(notifyUrl: string, params: Record<string, string>, options?: NotifyOptions): Promise<string>;
  /** Completes a submitted order: sends its signed notification to its notify_url. */
  pay(outTradeNo: string): Promise<string>;
  close(): Promise<void>;
}

/** The EPay signature, written here independently of the gateway's code. */
export function standInSign(params: Record<string, string>, key: string): string {
  const pairs = Object.entries(params)
    .filter(([name, value]) => name !== 'sign' && name !== 'sign_type' && value !== '')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`);
  return createHash('md5')
    .update(`${pairs.join('&')}${key}`)
    .digest('hex');
}

export async function startPaymentStandIn(pid = '1001', key = 'stand-in-merchant-key'): Promise<PaymentStandIn> {
  const orders = new Map<string, SubmittedOrder>();
  let sequence = 0;

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (req.method !== 'POST' || path !== '/submit.php') {
        res.writeHead(404).end('not found');
        return;
      }
      const fields = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const required = ['pid', 'type', 'out_trade_no', 'notify_url', 'return_url', 'name', 'money', 'sign'];
      const missing = required.filter((name) => !fields[name]);
      if (missing.length > 0 || fields.sign_type !== 'MD5' || fields.pid !== pid || fields.sign !== standInSign(fields, key)) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 0, msg: '签名验证失败' }));
        return;
      }
      sequence += 1;
      orders.set(fields.out_trade_no!, { fields, tradeNo: `SI${Date.now()}${sequence}` });
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<h1>Pay ¥${fields.money} for ${fields.name}</h1>`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function orderOf(outTradeNo: string): SubmittedOrder {
    const order = orders.get(outTradeNo);
    if (!order) throw new Error(`stand-in: no submitted order ${outTradeNo}`);
    return order;
  }

  const standIn: PaymentStandIn = {
    url,
    pid,
    key,
    orders,
    async submit(target, fields) {
      const res = await fetch(target, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });
      return { status: res.status, body: await res.text() };
    },
    paidNotice(outTradeNo, extra = {}) {
      const { fields, tradeNo } = orderOf(outTradeNo);
      return {
        pid,
        trade_no: tradeNo,
        out_trade_no: outTradeNo,
        type: fields.type ?? '',
        name: fields.name ?? '',
        money: fields.money ?? '',
        trade_status: 'TRADE_SUCCESS',
        ...extra,
      };
    },
    async notify(notifyUrl, params, options = {}) {
      const signed = { ...params, sign: standInSign(params, options.key ?? key), sign_type: 'MD5', ...options.tamper };
      const query = new URLSearchParams(signed).toString();
      const res =
        options.method === 'POST'
          ? await fetch(notifyUrl, {
              method: 'POST',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              body: query,
            })
          : await fetch(`${notifyUrl}?${query}`);
      return res.text();
    },
    async pay(outTradeNo) {
      return standIn.notify(orderOf(outTradeNo).fields.notify_url ?? '', standIn.paidNotice(outTradeNo));
    },
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
  return standIn;
}
