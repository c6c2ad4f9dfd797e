/**
 * The one fetcher for URLs a person supplies (an admin's base URL in a request body, later image
 * URLs in prompts). Guards against SSRF:
 * - only http and https;
 * - every address the host resolves to is checked, and one blocked address refuses the host;
 * - the connection goes to the address that was checked (the socket's lookup is pinned to it), so
 *   a second DNS answer cannot swap in another one (DNS rebinding);
 * - redirects are followed by hand, at most five, and every hop is checked the same way; the
 *   caller's headers (keys) are not carried to another origin;
 * - one deadline for the whole exchange, and a cap on the answer's size.
 *
 * Loopback, private (RFC 1918), CGNAT and unique-local addresses are refused unless the caller
 * passes `allowPrivate` (operators with self-hosted upstreams). Link-local (cloud metadata),
 * unspecified, multicast and reserved addresses are refused always.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { Agent, request, type Dispatcher } from 'undici';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Host name → addresses. Tests inject one; the default asks the system resolver for all. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface SafeFetchOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Allow loopback, private, CGNAT and unique-local targets (never link-local or reserved). */
  allowPrivate?: boolean;
  /** Milliseconds for the whole exchange, redirects included. */
  timeoutMs?: number;
  /** Largest answer body read, in bytes. */
  maxBytes?: number;
  maxRedirects?: number;
  resolve?: Resolver;
}

export interface SafeResponse {
  status: number;
  headers: Dispatcher.ResponseData['headers'];
  /** The URL that answered (after redirects). */
  url: string;
  body: Buffer;
  text(): string;
}

/** A refusal: the URL or an address it leads to is not allowed, or the exchange broke a limit. */
export class SafeFetchError extends Error {
  constructor(
    message: string,
    readonly code: 'scheme' | 'blocked' | 'resolve' | 'redirects' | 'too_large' | 'timeout',
    /** Blocked only because the address is on a private network, which the caller may allow. */
    readonly privateNetwork = false,
  ) {
    super(message);
  }
}

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const DEFAULT_MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers that may follow a redirect to another origin; everything else (keys, cookies) stays behind. */
const CROSS_ORIGIN_HEADERS = new Set(['accept', 'accept-language', 'user-agent', 'content-type']);

function blockList(v4: string[], v6: string[]): BlockList {
  const list = new BlockList();
  for (const cidr of v4) {
    const [net, prefix] = cidr.split('/');
    list.addSubnet(net!, Number(prefix), 'ipv4');
  }
  for (const cidr of v6) {
    const [net, prefix] = cidr.split('/');
    list.addSubnet(net!, Number(prefix), 'ipv6');
  }
  return list;
}

/** Never reachable: unspecified, link-local (169.254.169.254 metadata), multicast, reserved. */
const ALWAYS_BLOCKED = blockList(
  ['0.0.0.0/8', '169.254.0.0/16', '224.0.0.0/4', '240.0.0.0/4'],
  ['::/128', 'fe80::/10', 'ff00::/8', 'fec0::/10'],
);

/** Reachable only with `allowPrivate`: loopback, RFC 1918, CGNAT, IETF protocol, benchmarking, ULA. */
const PRIVATE = blockList(
  ['127.0.0.0/8', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', '192.0.0.0/24', '198.18.0.0/15'],
  ['::1/128', 'fc00::/7'],
);

/** Expands an IPv6 text form into its eight 16-bit groups. */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  // A trailing dotted IPv4 part stands for the last two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const octets = dotted[1]!.split('.').map(Number);
    const hi = ((octets[0]! << 8) | octets[1]!).toString(16);
    const lo = ((octets[2]! << 8) | octets[3]!).toString(16);
    text = `${text.slice(0, -dotted[1]!.length)}${hi}:${lo}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 0) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/**
 * The IPv4 address an IPv6 address carries, for the forms that reach an IPv4 host: mapped
 * (::ffff:a.b.c.d), compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d).
 */
function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  if (!g) return null;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const mapped = zeros(0, 5) && g[5] === 0xffff;
  const compatible = zeros(0, 6) && (g[6] !== 0 || g[7]! > 1);
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6);
  if (!mapped && !compatible && !nat64) return null;
  return [g[6]! >> 8, g[6]! & 0xff, g[7]! >> 8, g[7]! & 0xff].join('.');
}

export type AddressClass = 'public' | 'private' | 'blocked';

/** Classifies one IP address (v4 or v6 text). Anything unparseable is blocked. */
export function classifyAddress(address: string): AddressClass {
  const family = isIP(address);
  if (family === 0) return 'blocked';
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4 !== null) return classifyAddress(v4);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (ALWAYS_BLOCKED.check(address, type)) return 'blocked';
  if (PRIVATE.check(address, type)) return 'private';
  return 'public';
}

const systemResolver: Resolver = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/**
 * Reads `ALLOW_PRIVATE_UPSTREAMS` (true/1) at the moment of the call: whether an admin's channel
 * upstreams (a base URL, a Vertex token address) may be on the gateway's own network. Anything a
 * user supplies (links in prompts, webhooks, OAuth calls, drawing images) never gets it.
 */
export function privateUpstreamsAllowed(env: Record<string, string | undefined> = process.env): boolean {
  const raw = env.ALLOW_PRIVATE_UPSTREAMS;
  return raw === 'true' || raw === '1';
}

/**
 * `ALLOW_PRIVATE_HOSTS`: host names or addresses (comma-separated) an operator trusts on a private
 * network — a self-hosted WeChat server, an internal webhook receiver — which every fetch may reach.
 * Read at the moment of the call; link-local and unspecified addresses stay refused even then.
 */
export function trustedPrivateHosts(env: Record<string, string | undefined> = process.env): ReadonlySet<string> {
  return new Set(
    (env.ALLOW_PRIVATE_HOSTS ?? '')
      .split(',')
      .map((h) =>
        h
          .trim()
          .toLowerCase()
          .replace(/^\[|\]$/g, ''),
      )
      .filter(Boolean),
  );
}

function checkedUrl(raw: string | URL): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SafeFetchError('地址格式不正确', 'scheme');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SafeFetchError('只允许 http 或 https 地址', 'scheme');
  return url;
}

/** Resolves the URL's host and returns the address to connect to, or refuses. */
async function vettedAddress(url: URL, allowPrivate: boolean, resolve: Resolver): Promise<ResolvedAddress> {
  // WHATWG parsing already turned decimal, octal and short IPv4 forms into dotted quads.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const trusted = trustedPrivateHosts();
  let addresses: ResolvedAddress[];
  const literal = isIP(host);
  if (literal !== 0) addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await resolve(host);
    } catch (err) {
      throw new SafeFetchError(`无法解析域名 ${host}：${(err as Error).message}`, 'resolve');
    }
    if (addresses.length === 0) throw new SafeFetchError(`无法解析域名 ${host}`, 'resolve');
  }
  for (const a of addresses) {
    const kind = classifyAddress(a.address);
    const allowed = allowPrivate || trusted.has(host) || trusted.has(a.address);
    if (kind === 'blocked' || (kind === 'private' && !allowed)) {
      throw new SafeFetchError(`不允许访问内网或保留地址：${host}（${a.address}）`, 'blocked', kind === 'private');
    }
  }
  return addresses[0]!;
}

/**
 * Checks a URL by the rules `safeFetch` applies before it connects — http or https, and no address
 * the host resolves to is refused — without fetching it: for addresses saved now and fetched later
 * (a webhook), so what would be refused then is refused when saved. Throws `SafeFetchError`.
 */
export async function vetUrl(target: string, options: Pick<SafeFetchOptions, 'allowPrivate' | 'resolve'> = {}): Promise<void> {
  await vettedAddress(checkedUrl(target), options.allowPrivate ?? false, options.resolve ?? systemResolver);
}

/** An agent whose every connection goes to `pinned`, whatever name the URL carries. */
function pinnedAgent(pinned: ResolvedAddress): Agent {
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  };
  return new Agent({ connect: { lookup, timeout: 10_000 }, keepAliveTimeout: 1, pipelining: 0, connections: 1 });
}

/** Drops an answer body unread; its abort error has no one to tell. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

async function readCapped(body: Dispatcher.ResponseData['body'], maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > maxBytes) {
      discard(body);
      throw new SafeFetchError(`响应体超过 ${maxBytes} 字节`, 'too_large');
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

function redirectHeaders(headers: Record<string, string>, sameOrigin: boolean, keepBody: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (!sameOrigin && !CROSS_ORIGIN_HEADERS.has(lower)) continue;
    if (!keepBody && (lower === 'content-type' || lower === 'content-length')) continue;
    out[name] = value;
  }
  return out;
}

/** Fetches a person-supplied URL under the rules above. Throws `SafeFetchError` on a refusal. */
export async function safeFetch(target: string | URL, options: SafeFetchOptions = {}): Promise<SafeResponse> {
  const allowPrivate = options.allowPrivate ?? false;
  const resolve = options.resolve ?? systemResolver;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);

  let url = checkedUrl(target);
  let method: 'GET' | 'POST' = options.method ?? 'GET';
  let body = options.body;
  let headers = { ...options.headers };

  try {
    for (let hop = 0; ; hop++) {
      const pinned = await vettedAddress(url, allowPrivate, resolve);
      signal.throwIfAborted();
      const agent = pinnedAgent(pinned);
      try {
        const res = await request(url, { method, headers, body, signal, dispatcher: agent });
        const location = res.headers.location;
        if (REDIRECT_STATUSES.has(res.statusCode) && typeof location === 'string' && location !== '') {
          discard(res.body);
          if (hop >= maxRedirects) throw new SafeFetchError(`重定向次数超过 ${maxRedirects} 次`, 'redirects');
          const next = checkedUrl(new URL(location, url));
          // 303, and 301/302 after a POST, turn into a GET without a body (what browsers do).
          const keepBody = res.statusCode === 307 || res.statusCode === 308;
          if (!keepBody) {
            method = 'GET';
            body = undefined;
          }
          headers = redirectHeaders(headers, next.origin === url.origin, keepBody);
          url = next;
          continue;
        }
        const data = await readCapped(res.body, maxBytes);
        return {
          status: res.statusCode,
          headers: res.headers,
          url: url.toString(),
          body: data,
          text: () => data.toString('utf8'),
        };
      } finally {
        agent.destroy().catch(() => undefined);
      }
    }
  } catch (err) {
    if (err instanceof SafeFetchError) throw err;
    if (signal.aborted) throw new SafeFetchError(`请求超时（${timeoutMs} 毫秒）`, 'timeout');
    throw err;
  }
}
