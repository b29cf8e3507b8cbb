/**
 * Refuses connections to private addresses (private-addresses.ts) for the requests URL and API Request make, at
 * connection time. Checking the URL's host string before fetching is not enough: a name can resolve to 127.0.0.1
 * (`localhost`, wildcard DNS services, or a DNS answer that changes between the check and the connect), and a
 * public page can redirect to an internal one. So the check sits in an undici Agent's connector, through which
 * every new connection passes (the first request's and each redirect hop's alike): it resolves the host, checks
 * every address the name has, and connects the socket to a checked address itself, so the address checked is the
 * address connected to. undici's own fetch is used with this Agent: Node's built-in fetch takes a dispatcher only
 * from the undici version bundled with that Node, which differs between Node 20, 22 and 24.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type * as Undici from 'undici';
import { isMetadataHostName, privateRangeOf, unbracketed } from './private-addresses.js';

/** Why a connection was refused, without the address itself (the caller learns the range, not the network's layout). */
export class PrivateNetworkRefusal extends Error {
  override name = 'PrivateNetworkRefusal';

  constructor(
    /** The host connected to: the request's own, or a redirect's. */
    readonly host: string,
    /** `resolves to a loopback address`, `is a cloud metadata host name`, ... */
    readonly reason: string,
  ) {
    super(`${host} ${reason}`);
  }
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** A host name's addresses (dns.lookup's, which reads /etc/hosts as connections do). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The private range an address lies in, or undefined when it may be reached. */
export type AddressCheck = (address: string) => string | undefined;

export interface GuardOptions {
  /** Tests give a stub; the default is the system resolver. */
  resolve?: Resolver;
  /** Tests may let one stand-in address through; the default is privateRangeOf. */
  rangeOf?: AddressCheck;
}

const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/**
 * The addresses a connection to `hostname` may use: all of its addresses when none is private, else a refusal.
 * One private address among public ones refuses the name too: the socket could land on any of them.
 */
export async function checkedAddresses(hostname: string, options: GuardOptions = {}): Promise<ResolvedAddress[]> {
  const host = unbracketed(hostname);
  const rangeOf = options.rangeOf ?? privateRangeOf;
  if (isMetadataHostName(host)) throw new PrivateNetworkRefusal(host, 'is a cloud metadata host name');
  const family = isIP(host);
  const addresses = family !== 0 ? [{ address: host, family }] : await (options.resolve ?? systemResolver)(host);
  if (addresses.length === 0) throw new Error(`${host} has no address`);
  for (const { address } of addresses) {
    const range = rangeOf(address);
    if (range) throw new PrivateNetworkRefusal(host, `resolves to ${range}`);
  }
  return addresses;
}

/** An Agent whose every connection goes to a checked address (see the top of this file). */
export function privateNetworkGuard(undici: typeof Undici, options: GuardOptions = {}): Undici.Agent {
  const connect = undici.buildConnector({});
  return new undici.Agent({
    connect(connection, callback) {
      checkedAddresses(connection.hostname, options).then(
        ([first]) => {
          // Connecting to the checked address, not the name, leaves no second lookup to give another answer; TLS
          // still verifies the certificate against the name (servername), as it would have.
          const servername = isIP(unbracketed(connection.hostname)) === 0 ? connection.hostname : undefined;
          connect({ ...connection, hostname: first!.address, servername: connection.servername ?? servername }, callback);
        },
        (error: Error) => callback(error, null),
      );
    },
  });
}

/** The refusal behind a failed fetch (undici's fetch reports a connector's error as its cause). */
export function refusalOf(error: unknown): PrivateNetworkRefusal | undefined {
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause instanceof PrivateNetworkRefusal ? cause : error instanceof PrivateNetworkRefusal ? error : undefined;
}
