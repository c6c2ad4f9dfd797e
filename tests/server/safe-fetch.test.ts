import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  classifyAddress,
  privateUpstreamsAllowed,
  safeFetch,
  SafeFetchError,
  type Resolver,
} from '../../server/http/safe-fetch.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local server playing the far end: answers, redirects, big and slow bodies. */
let server: Server;
let port = 0;
let seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
      const url = new URL(req.url ?? '/', 'http://x');
      const to = url.searchParams.get('to');
      if (url.pathname === '/redirect' && to) {
        res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: to });
        return res.end();
      }
      if (url.pathname === '/hops') {
        const n = Number(url.searchParams.get('n'));
        res.writeHead(302, { location: n > 0 ? `/hops?n=${n - 1}` : '/ok' });
        return res.end();
      }
      if (url.pathname === '/big') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end('x'.repeat(100_000));
      }
      if (url.pathname === '/slow') {
        setTimeout(() => res.end('late'), 2_000).unref();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ path: url.pathname, host: req.headers.host }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen = [];
});

/** Names under .test never resolve for real: an answer proves the injected table was used. */
function table(entries: Record<string, string[]>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolver = async (hostname: string) => {
    calls.push(hostname);
    const addresses = entries[hostname];
    if (!addresses) throw new Error(`no such host ${hostname}`);
    return addresses.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));
  };
  return Object.assign(resolver, { calls });
}

async function refusal(promise: Promise<unknown>): Promise<SafeFetchError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SafeFetchError);
  return err as SafeFetchError;
}

describe('address classes', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'private'],
    ['127.255.0.9', 'private'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['100.127.255.254', 'private'],
    ['::1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['::ffff:127.0.0.1', 'private'],
    ['::ffff:7f00:1', 'private'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:192.168.0.1', 'private'],
    ['169.254.169.254', 'blocked'],
    ['169.254.0.1', 'blocked'],
    ['0.0.0.0', 'blocked'],
    ['0.1.2.3', 'blocked'],
    ['224.0.0.1', 'blocked'],
    ['239.255.255.250', 'blocked'],
    ['255.255.255.255', 'blocked'],
    ['::', 'blocked'],
    ['fe80::1', 'blocked'],
    ['fe80::1%eth0', 'blocked'],
    ['ff02::1', 'blocked'],
    ['::ffff:169.254.169.254', 'blocked'],
    ['::ffff:0.0.0.0', 'blocked'],
    ['64:ff9b::a9fe:a9fe', 'blocked'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['not-an-ip', 'blocked'],
  ])('%s is %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });
});

describe('safeFetch refuses', () => {
  it.each([
    'http://127.0.0.1:1/',
    'http://127.1/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://10.0.0.1/',
    'http://172.16.5.4/',
    'http://192.168.0.1/',
    'http://100.64.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://0.0.0.0/',
    'http://224.0.0.1/',
    'http://[::1]/',
    'http://[fc00::1]/',
    'http://[fe80::1]/',
    'http://[::ffff:10.0.0.1]/',
    'http://[::ffff:169.254.169.254]/',
  ])('the literal address %s', async (url) => {
    const err = await refusal(safeFetch(url));
    expect(err.code).toBe('blocked');
  });

  it('a name resolving to loopback (localhost)', async () => {
    const err = await refusal(safeFetch(`http://localhost:${port}/ok`));
    expect(err.code).toBe('blocked');
    expect(seen).toHaveLength(0);
  });

  it('a name with any private address among its answers', async () => {
    const resolve = table({ 'mixed.test': ['93.184.216.34', '10.0.0.5'], 'inner.test': ['192.168.7.7'] });
    expect((await refusal(safeFetch('http://mixed.test/', { resolve }))).code).toBe('blocked');
    expect((await refusal(safeFetch('http://inner.test/', { resolve }))).code).toBe('blocked');
  });

  it('link-local, unspecified and multicast targets even with allowPrivate', async () => {
    for (const url of ['http://169.254.169.254/', 'http://0.0.0.0/', 'http://[fe80::1]/', 'http://239.1.1.1/']) {
      expect((await refusal(safeFetch(url, { allowPrivate: true }))).code).toBe('blocked');
    }
    const resolve = table({ 'metadata.test': ['169.254.169.254'] });
    expect((await refusal(safeFetch('http://metadata.test/', { resolve, allowPrivate: true }))).code).toBe('blocked');
  });

  it('schemes other than http and https', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/', 'gopher://example.com/', 'not a url']) {
      expect((await refusal(safeFetch(url, { allowPrivate: true }))).code).toBe('scheme');
    }
  });

  it('a redirect to the metadata address, after an allowed first hop', async () => {
    const to = encodeURIComponent('http://169.254.169.254/latest/meta-data/');
    const err = await refusal(safeFetch(`http://127.0.0.1:${port}/redirect?to=${to}`, { allowPrivate: true }));
    expect(err.code).toBe('blocked');
    expect(err.message).toContain('169.254.169.254');
    expect(seen.map((s) => s.url)).toEqual([`/redirect?to=${to}`]);
  });

  it('a redirect to a name that resolves to a blocked address (each hop is resolved and checked)', async () => {
    const resolve = table({ 'start.test': ['127.0.0.1'], 'evil.test': ['169.254.169.254'] });
    const to = encodeURIComponent('http://evil.test/');
    const err = await refusal(safeFetch(`http://start.test:${port}/redirect?to=${to}`, { resolve, allowPrivate: true }));
    expect(err.code).toBe('blocked');
    expect(resolve.calls).toEqual(['start.test', 'evil.test']);
  });

  it('a redirect to a scheme other than http and https', async () => {
    const to = encodeURIComponent('file:///etc/passwd');
    const err = await refusal(safeFetch(`http://127.0.0.1:${port}/redirect?to=${to}`, { allowPrivate: true }));
    expect(err.code).toBe('scheme');
  });

  it('more than five redirects', async () => {
    const err = await refusal(safeFetch(`http://127.0.0.1:${port}/hops?n=10`, { allowPrivate: true }));
    expect(err.code).toBe('redirects');
    expect(seen).toHaveLength(6);
  });

  it('an answer larger than the cap', async () => {
    const err = await refusal(safeFetch(`http://127.0.0.1:${port}/big`, { allowPrivate: true, maxBytes: 1000 }));
    expect(err.code).toBe('too_large');
  });

  it('an answer slower than the deadline', async () => {
    const started = Date.now();
    const err = await refusal(safeFetch(`http://127.0.0.1:${port}/slow`, { allowPrivate: true, timeoutMs: 150 }));
    expect(err.code).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1500);
  });
});

describe('safeFetch fetches', () => {
  it('an allowed name, connecting to the address it checked (pinned, resolved once)', async () => {
    // The resolver answers once; a second lookup (by the socket) would fail the request.
    let answered = false;
    const resolve: Resolver = async (hostname) => {
      if (hostname !== 'api.upstream.test' || answered) throw new Error('looked up twice');
      answered = true;
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const res = await safeFetch(`http://api.upstream.test:${port}/ok`, {
      resolve,
      allowPrivate: true,
      headers: { authorization: 'Bearer sk-x' },
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text())).toEqual({ path: '/ok', host: `api.upstream.test:${port}` });
    expect(seen[0]?.headers.authorization).toBe('Bearer sk-x');
  });

  it('through up to five redirects, keeping headers on the same origin', async () => {
    const res = await safeFetch(`http://127.0.0.1:${port}/hops?n=4`, {
      allowPrivate: true,
      headers: { authorization: 'Bearer sk-same' },
    });
    expect(res.status).toBe(200);
    expect(res.url).toBe(`http://127.0.0.1:${port}/ok`);
    expect(seen).toHaveLength(6);
    expect(seen.every((s) => s.headers.authorization === 'Bearer sk-same')).toBe(true);
  });

  it('without the caller’s keys after a redirect to another origin', async () => {
    const resolve = table({ 'other.test': ['127.0.0.1'] });
    const to = encodeURIComponent(`http://other.test:${port}/ok`);
    const res = await safeFetch(`http://127.0.0.1:${port}/redirect?to=${to}`, {
      resolve,
      allowPrivate: true,
      headers: { authorization: 'Bearer sk-secret', 'x-api-key': 'k', accept: 'application/json' },
    });
    expect(res.status).toBe(200);
    expect(seen).toHaveLength(2);
    expect(seen[0]?.headers.authorization).toBe('Bearer sk-secret');
    expect(seen[1]?.headers.authorization).toBeUndefined();
    expect(seen[1]?.headers['x-api-key']).toBeUndefined();
    expect(seen[1]?.headers.accept).toBe('application/json');
  });

  it('turning a POST into a GET on 303 and keeping it on 307', async () => {
    const to = encodeURIComponent('/ok');
    await safeFetch(`http://127.0.0.1:${port}/redirect?status=303&to=${to}`, {
      method: 'POST',
      body: '{"a":1}',
      headers: { 'content-type': 'application/json' },
      allowPrivate: true,
    });
    expect(seen.map((s) => [s.method, s.body])).toEqual([
      ['POST', '{"a":1}'],
      ['GET', ''],
    ]);
    seen = [];
    await safeFetch(`http://127.0.0.1:${port}/redirect?status=307&to=${to}`, {
      method: 'POST',
      body: '{"a":1}',
      headers: { 'content-type': 'application/json' },
      allowPrivate: true,
    });
    expect(seen.map((s) => [s.method, s.body])).toEqual([
      ['POST', '{"a":1}'],
      ['POST', '{"a":1}'],
    ]);
  });
});

describe('ALLOW_PRIVATE_UPSTREAMS', () => {
  it('is read from the environment given', () => {
    expect(privateUpstreamsAllowed({})).toBe(false);
    expect(privateUpstreamsAllowed({ ALLOW_PRIVATE_UPSTREAMS: 'true' })).toBe(true);
    expect(privateUpstreamsAllowed({ ALLOW_PRIVATE_UPSTREAMS: '1' })).toBe(true);
    expect(privateUpstreamsAllowed({ ALLOW_PRIVATE_UPSTREAMS: 'false' })).toBe(false);
  });
});
