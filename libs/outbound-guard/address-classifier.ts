import { BlockList, isIP } from 'node:net';

/**
 * Ranges a tenant-chosen target may not reach in hosted mode, with the reason
 * given when an address falls in one: this host, private networks, carrier-grade
 * NAT, link-local (cloud metadata), multicast, reserved and documentation
 * ranges, and the IPv6 prefixes that tunnel or translate to IPv4.
 */
const RANGES: [string, number, 'ipv4' | 'ipv6', string][] = [
  ['0.0.0.0', 8, 'ipv4', 'unspecified'],
  ['10.0.0.0', 8, 'ipv4', 'private'],
  ['100.64.0.0', 10, 'ipv4', 'private'],
  ['127.0.0.0', 8, 'ipv4', 'loopback'],
  ['169.254.0.0', 16, 'ipv4', 'link-local'],
  ['172.16.0.0', 12, 'ipv4', 'private'],
  ['192.0.0.0', 24, 'ipv4', 'reserved'],
  ['192.0.2.0', 24, 'ipv4', 'reserved'],
  ['192.88.99.0', 24, 'ipv4', 'reserved'],
  ['192.168.0.0', 16, 'ipv4', 'private'],
  ['198.18.0.0', 15, 'ipv4', 'reserved'],
  ['198.51.100.0', 24, 'ipv4', 'reserved'],
  ['203.0.113.0', 24, 'ipv4', 'reserved'],
  ['224.0.0.0', 4, 'ipv4', 'multicast'],
  ['240.0.0.0', 4, 'ipv4', 'reserved'],
  ['::', 128, 'ipv6', 'unspecified'],
  ['::1', 128, 'ipv6', 'loopback'],
  ['64:ff9b::', 96, 'ipv6', 'reserved'],
  ['64:ff9b:1::', 48, 'ipv6', 'reserved'],
  ['100::', 64, 'ipv6', 'reserved'],
  ['2001::', 23, 'ipv6', 'reserved'],
  ['2001:db8::', 32, 'ipv6', 'reserved'],
  ['2002::', 16, 'ipv6', 'reserved'],
  ['fc00::', 7, 'ipv6', 'private'],
  ['fe80::', 10, 'ipv6', 'link-local'],
  ['fec0::', 10, 'ipv6', 'reserved'],
  ['ff00::', 8, 'ipv6', 'multicast'],
];

const LISTS = new Map<string, BlockList>();
for (const [net, prefix, family, reason] of RANGES) {
  let list = LISTS.get(reason);
  if (!list) LISTS.set(reason, (list = new BlockList()));
  list.addSubnet(net, prefix, family);
}

/** Why an address is refused, or `public`. */
export type AddressClass = 'public' | 'unspecified' | 'private' | 'loopback' | 'link-local' | 'multicast' | 'reserved';

/**
 * Reads an IPv4 address the way `inet_aton` (and so getaddrinfo, libpq and
 * most resolvers) does: one to four parts, each decimal, hex (`0x7f`) or
 * octal (`0177`), the last part filling the remaining bytes (`127.1`,
 * `2130706433`). Returns the dotted-quad form, or undefined when `text` is not
 * such an address.
 */
export function parseIpv4Loose(text: string): string | undefined {
  const parts = text.split('.');
  if (parts.length > 4 || parts.some((p) => p === '')) return undefined;
  const values: number[] = [];
  for (const part of parts) {
    let value: number;
    if (/^0x[0-9a-f]*$/i.test(part)) value = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (/^0[0-7]*$/.test(part)) value = parseInt(part, 8);
    else if (/^[1-9][0-9]*$/.test(part)) value = parseInt(part, 10);
    else return undefined;
    if (!Number.isSafeInteger(value)) return undefined;
    values.push(value);
  }
  const last = values.pop() as number;
  if (values.some((v) => v > 255) || last >= 256 ** (4 - values.length)) return undefined;
  let n = last;
  values.forEach((v, i) => (n += v * 256 ** (3 - i)));
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** The IPv4 address inside an IPv4-mapped, -compatible or -translated IPv6 address (`::ffff:7f00:1`), if any. */
function embeddedIpv4(address: string): string | undefined {
  const m = address.toLowerCase().match(/^(?:::(?:ffff:(?:0:)?)?|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/);
  if (!m) return undefined;
  if (m[1]) return m[1];
  const hi = parseInt(m[2], 16);
  const lo = parseInt(m[3], 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/**
 * An IP literal in its one canonical spelling (dotted quad, or IPv6 without
 * brackets, zone or case), with IPv4 forms such as `0x7f.1` or `2130706433`
 * read as inet_aton reads them; undefined when `text` is a name, not an address.
 */
export function canonicalAddress(text: string): string | undefined {
  const bare = text
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '')
    .toLowerCase();
  if (isIP(bare) === 4) return bare;
  if (isIP(bare) === 6) return new URL(`http://[${bare}]/`).hostname.replace(/^\[|\]$/g, '');
  return parseIpv4Loose(bare);
}

/**
 * Classifies an IP literal (any spelling `canonicalAddress` reads). An
 * IPv6 address carrying an IPv4 one is classified by the IPv4 address, so
 * `::ffff:127.0.0.1` is loopback. A text that is no address at all is `reserved`.
 */
export function classifyAddress(text: string): AddressClass {
  const address = canonicalAddress(text);
  if (!address) return 'reserved';
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  if (family === 'ipv6') {
    const v4 = embeddedIpv4(address);
    if (v4) return classifyAddress(v4);
  }
  for (const [reason, list] of LISTS) if (list.check(address, family)) return reason as AddressClass;
  return 'public';
}
