import { lookup } from 'node:dns/promises';
import { BlockList, isIP, LookupFunction } from 'node:net';
import { canonicalAddress, classifyAddress } from './address-classifier';

export interface OutboundGuardOptions {
  /**
   * Hosted mode: refuse every address that is not public unless the operator
   * allowed it. Off (self-hosted), hosts are still resolved once and pinned,
   * but nothing is refused: the person who chose the target runs the instance.
   */
  enforce: boolean;
  /** Host names, addresses (any spelling) or CIDR ranges the operator permits. */
  allowedHosts: string[];
  /** Resolves a name to every address (injected by tests); node's getaddrinfo by default. */
  resolve?: (host: string) => Promise<{ address: string; family: number }[]>;
}

/** The address checked, which the caller must connect to, and the name asked for (for TLS and Host). */
export interface CheckedTarget {
  host: string;
  address: string;
  family: 4 | 6;
  /** Every address the name resolved to, all checked (for clients that try each family in turn). */
  addresses: { address: string; family: 4 | 6 }[];
}

/** A target the guard refused; `reason` is for logs and the operator, not necessarily for the tenant. */
export class OutboundRefusedError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'OutboundRefusedError';
  }
}

const defaultResolve = (host: string) => lookup(host, { all: true, verbatim: true });

/**
 * The one gate every tenant-chosen outbound target passes (BYODB databases,
 * OTLP endpoints, notification URLs). `check` resolves the host once, refuses
 * it in hosted mode when any address it resolves to is loopback, private,
 * link-local, unspecified, multicast or reserved (whatever its spelling)
 * unless the operator allowed the host or the address, and returns the
 * address the caller must connect to, so a DNS answer that changes between
 * check and connect (rebinding) cannot move the connection elsewhere.
 */
export class OutboundGuard {
  private readonly names = new Set<string>();
  private readonly ranges = new BlockList();
  private readonly resolve: (host: string) => Promise<{ address: string; family: number }[]>;

  constructor(private readonly options: OutboundGuardOptions) {
    this.resolve = options.resolve ?? defaultResolve;
    for (const raw of options.allowedHosts) {
      const entry = raw.trim().toLowerCase();
      if (!entry) continue;
      const [base, prefix] = entry.split('/');
      const address = canonicalAddress(base);
      if (address && prefix !== undefined) this.ranges.addSubnet(address, Number(prefix), isIP(address) === 6 ? 'ipv6' : 'ipv4');
      else if (address) this.ranges.addAddress(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
      else this.names.add(entry.replace(/\.$/, ''));
    }
  }

  get enforcing(): boolean {
    return this.options.enforce;
  }

  /** Checks `host` (a name or an address in any spelling) and returns the address to connect to. Makes no connection. */
  async check(host: string): Promise<CheckedTarget> {
    const name = host
      .trim()
      .replace(/^\[|\]$/g, '')
      .toLowerCase()
      .replace(/\.$/, '');
    if (!name) throw new OutboundRefusedError('no host');
    const literal = canonicalAddress(name);
    let addresses: { address: string; family: number }[];
    if (literal) {
      addresses = [{ address: literal, family: isIP(literal) }];
    } else {
      try {
        addresses = await this.resolve(name);
      } catch (error) {
        throw new OutboundRefusedError(`${name} does not resolve (${(error as { code?: string }).code ?? 'error'})`);
      }
      addresses = addresses.map((a) => ({ address: canonicalAddress(a.address) ?? a.address, family: a.family }));
    }
    if (addresses.length === 0) throw new OutboundRefusedError(`${name} does not resolve`);
    if (this.options.enforce && !this.names.has(name)) {
      for (const a of addresses) {
        const kind = classifyAddress(a.address);
        if (kind !== 'public' && !this.ranges.check(a.address, a.family === 6 ? 'ipv6' : 'ipv4')) {
          throw new OutboundRefusedError(`${name} resolves to ${a.address}, a ${kind} address, which hosted Baton does not connect to`);
        }
      }
    }
    const checked = addresses.map((a) => ({ address: a.address, family: a.family === 6 ? (6 as const) : (4 as const) }));
    return { host: name, address: checked[0].address, family: checked[0].family, addresses: checked };
  }

  /** Checks the host of an http(s) URL; refuses other schemes. */
  async checkUrl(url: URL): Promise<CheckedTarget> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefusedError('not an http(s) URL');
    return this.check(url.hostname);
  }
}

/**
 * A `lookup` for node's http, https and net that answers every query with the
 * checked address, so the request goes where the guard looked, whatever DNS
 * says by then. TLS still verifies the certificate against the URL's name.
 */
export function pinnedLookup(target: CheckedTarget): LookupFunction {
  return (_host, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, target.addresses);
    } else {
      callback(null, target.address, target.family);
    }
  };
}
