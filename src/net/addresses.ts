import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { BadRequest } from '../errors.ts';

/**
 * Where an import may fetch from. By default only public unicast addresses: loopback, private,
 * link-local (which holds the cloud metadata services, 169.254.169.254), unique-local, carrier-grade NAT,
 * multicast, reserved and every other special range are refused, for IPv4 and IPv6 alike (an IPv4 address
 * mapped into IPv6 is judged as the IPv4 address). The check is made on the addresses a name resolves to,
 * and the connection is then made to the address that was checked, so a name that resolves differently a
 * second time (DNS rebinding) cannot slip through.
 */

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to all its addresses (injectable, for tests). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

const RANGE_NAMES: Record<string, string> = {
  loopback: 'loopback',
  private: 'private network',
  linkLocal: 'link-local (cloud metadata services live there)',
  uniqueLocal: 'unique-local (private IPv6)',
  carrierGradeNat: 'carrier-grade NAT (shared address space)',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  reserved: 'reserved',
};

/** The name of the special range an address is in, or null when it is a public unicast address. */
export function specialRange(address: string): string | null {
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
  }
  const range = parsed.range();
  return range === 'unicast' ? null : range;
}

export interface DestinationOptions {
  allowPrivate: boolean;
  resolver?: Resolver;
  /** What the URL is, for messages ('import URL', 'webhook URL', 'Git remote'); 'import URL' by default. */
  what?: string;
  /** The setting that allows private destinations, named in the refusal (QUIRE_IMPORT_ALLOW_PRIVATE by default). */
  privateSetting?: string;
}

/** The host of a URL without the brackets of an IPv6 literal. */
function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Checks where a URL leads and returns the address to connect to. Refuses (400) a host that does not
 * resolve, and, unless private destinations are allowed, a host any of whose addresses is in a special range.
 */
export async function checkDestination(url: URL, options: DestinationOptions): Promise<ResolvedAddress> {
  const host = bareHost(url);
  const what = options.what ?? 'import URL';
  let addresses: ResolvedAddress[];
  if (ipaddr.isValid(host)) {
    addresses = [{ address: host, family: host.includes(':') ? 6 : 4 }];
  } else {
    try {
      addresses = await (options.resolver ?? systemResolver)(host);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTFOUND' || code === 'ENODATA' || code === 'EAI_AGAIN' || code === 'ESERVFAIL') {
        throw new BadRequest(`The host "${host}" of the ${what} could not be found; check the URL.`);
      }
      throw error;
    }
    if (addresses.length === 0) throw new BadRequest(`The host "${host}" of the ${what} has no address; check the URL.`);
  }
  if (!options.allowPrivate) {
    for (const { address } of addresses) {
      const range = specialRange(address);
      if (range === null) continue;
      const via = address === host ? '' : ` (the address of "${host}")`;
      throw new BadRequest(
        `The ${what} leads to ${address}${via}, an address in a ${RANGE_NAMES[range] ?? range} range. Quire only connects to public addresses; the operator can allow private networks with ${options.privateSetting ?? 'QUIRE_IMPORT_ALLOW_PRIVATE'}=1.`,
      );
    }
  }
  return addresses[0];
}
