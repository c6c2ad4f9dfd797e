import { BlockList, isIP } from 'node:net';

export type AllowIpsResult = { ok: true; lines: string[]; list: BlockList | null } | { ok: false; line: string };

function family(address: string): 'ipv4' | 'ipv6' | null {
  // Zone ids (fe80::1%eth0) name an interface of this host; they mean nothing in an allow list.
  if (address.includes('%')) return null;
  const version = isIP(address);
  return version === 4 ? 'ipv4' : version === 6 ? 'ipv6' : null;
}

/**
 * Parses a token's allow list: one IPv4/IPv6 address or CIDR per line, blank lines ignored.
 * Answers the first line that is neither, or the cleaned lines and a BlockList to check against
 * (null when the list is empty: every address is allowed).
 */
export function parseAllowIps(text: string | null | undefined): AllowIpsResult {
  const lines = (text ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (lines.length === 0) return { ok: true, lines, list: null };
  const list = new BlockList();
  for (const line of lines) {
    const slash = line.indexOf('/');
    const address = slash === -1 ? line : line.slice(0, slash);
    const kind = family(address);
    if (!kind) return { ok: false, line };
    if (slash === -1) {
      list.addAddress(address, kind);
      continue;
    }
    const prefix = line.slice(slash + 1);
    const max = kind === 'ipv4' ? 32 : 128;
    if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > max) return { ok: false, line };
    list.addSubnet(address, Number(prefix), kind);
  }
  return { ok: true, lines, list };
}

/** Whether `address` (as the request reports it, IPv4-mapped IPv6 included) is on the list. */
export function ipAllowed(list: BlockList, address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const plain = mapped?.[1] ?? address;
  const kind = family(plain);
  return kind !== null && list.check(plain, kind);
}
