/**
 * The address rule of channel upstreams, applied when a connection is made — by the relay's pool
 * (every call, test, model list and balance of a stored channel) and by its websockets — so no path
 * to an upstream skips it and a DNS answer that changes after a check cannot slip past it.
 *
 * The rule, the SSRF-safe fetcher's (safe-fetch.ts): link-local (cloud metadata), unspecified,
 * multicast and reserved addresses never; loopback, private (RFC 1918), CGNAT and unique-local ones
 * only with ALLOW_PRIVATE_UPSTREAMS (self-hosted upstreams: Ollama on the same machine) or for a
 * host named in ALLOW_PRIVATE_HOSTS. Both are read at connect time, like the fetcher reads them.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { buildConnector } from 'undici';
import { classifyAddress, privateUpstreamsAllowed, SafeFetchError, trustedPrivateHosts } from './safe-fetch.js';

/** The refusal of connecting to `address` for host `host`, or null when the rule allows it. */
function refusal(host: string, address: string): SafeFetchError | null {
  const kind = classifyAddress(address);
  if (kind === 'public') return null;
  const trusted = trustedPrivateHosts();
  if (kind === 'private' && (privateUpstreamsAllowed() || trusted.has(host) || trusted.has(address))) return null;
  return new SafeFetchError(`不允许访问内网或保留地址：${host}（${address}）`, 'blocked', kind === 'private');
}

const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '').toLowerCase();

/**
 * Refuses a host that is an address the rule does not allow (sockets skip the lookup for those);
 * names are checked by `upstreamLookup` as they resolve.
 */
export function vetUpstreamHost(hostname: string): void {
  const host = bare(hostname);
  if (isIP(host) === 0) return;
  const refused = refusal(host, host);
  if (refused) throw refused;
}

/** A socket `lookup` that resolves as the system does and refuses the name if any answer is refused. */
export const upstreamLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '', 0);
    const refused = addresses.map((a) => refusal(bare(hostname), a.address)).find((r) => r !== null);
    if (refused) return callback(refused as NodeJS.ErrnoException, '', 0);
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    if (!first) return callback(new SafeFetchError(`无法解析域名 ${hostname}`, 'resolve'), '', 0);
    callback(null, first.address, first.family);
  });
};

/** undici's connector for an Agent (`connect`), with the rule applied to every connection. */
export function guardedConnector(options: buildConnector.BuildOptions = {}): buildConnector.connector {
  const connect = buildConnector({ ...options, lookup: upstreamLookup });
  return (opts, callback) => {
    try {
      vetUpstreamHost(opts.hostname);
    } catch (err) {
      callback(err as Error, null);
      return;
    }
    connect(opts, callback);
  };
}
