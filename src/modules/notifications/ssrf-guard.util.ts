import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a hosted tenant's notification may not reach: this host, private
 * networks, link-local (cloud metadata), carrier-grade NAT, multicast,
 * reserved and documentation ranges, in both families.
 */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv6');
}

/** The IPv4 address inside an IPv4-mapped or -compatible IPv6 address (`::ffff:7f00:1`), if any. */
function embeddedIpv4(address: string): string | undefined {
  const m = address.toLowerCase().match(/^::(?:ffff:)?(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/);
  if (!m) return undefined;
  if (m[1]) return m[1];
  const hi = parseInt(m[2], 16);
  const lo = parseInt(m[3], 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** Whether `address` (an IP literal) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 4) return !BLOCKED.check(bare, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(bare);
    if (v4) return isPublicAddress(v4);
    return !BLOCKED.check(bare, 'ipv6');
  }
  return false;
}

export interface ResolvedTarget {
  url: URL;
  /** The address checked, and the one to connect to (a second lookup could answer differently). */
  address: string;
  family: 4 | 6;
}

export class UnsafeTargetError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'UnsafeTargetError';
  }
}

/**
 * Resolves the host of `url` and refuses it unless every address it resolves
 * to is public. Returns the first address, which the caller must connect to,
 * so a DNS answer that changes between check and use (rebinding) cannot move
 * the request onto an internal address. No connection is made here.
 */
export async function resolvePublicTarget(url: URL): Promise<ResolvedTarget> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw new UnsafeTargetError(`the host ${host} does not resolve`);
    }
  }
  if (addresses.length === 0) throw new UnsafeTargetError(`the host ${host} does not resolve`);
  const refused = addresses.find((a) => !isPublicAddress(a.address));
  if (refused) {
    throw new UnsafeTargetError(
      `${host} resolves to ${refused.address}, a private, loopback, link-local or otherwise internal address, which hosted Baton does not call`,
    );
  }
  return { url, address: addresses[0].address, family: addresses[0].family === 6 ? 6 : 4 };
}
