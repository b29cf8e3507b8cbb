/**
 * The addresses that a URL given by a flow or an API caller must not reach unless the service allows it
 * (FLOWSVC_ALLOW_PRIVATE_NETWORK): the server's own loopback, the private networks around it, link-local (where
 * cloud metadata services answer, at 169.254.169.254), the unspecified address (which connects to this machine),
 * and the metadata services' host names. Fetching them would let a flow author read what only the server can
 * reach: admin ports, internal APIs, cloud credentials.
 */
import { BlockList, isIP } from 'node:net';

type Family = 'ipv4' | 'ipv6';

/** What each range is called in a refusal, and its subnets. */
const RANGES: [name: string, subnets: [network: string, prefix: number, family: Family][]][] = [
  ['a loopback address', [['127.0.0.0', 8, 'ipv4'], ['::1', 128, 'ipv6']]],
  // 0.0.0.0/8 is "this network"; connecting to 0.0.0.0 or :: reaches this machine's listeners.
  ['an unspecified address', [['0.0.0.0', 8, 'ipv4'], ['::', 128, 'ipv6']]],
  [
    'a private network address',
    // 100.64.0.0/10 (carrier-grade NAT) is where Alibaba Cloud's metadata service answers (100.100.100.200).
    [['10.0.0.0', 8, 'ipv4'], ['172.16.0.0', 12, 'ipv4'], ['192.168.0.0', 16, 'ipv4'], ['100.64.0.0', 10, 'ipv4'], ['fc00::', 7, 'ipv6']],
  ],
  ['a link-local address (where cloud metadata services answer)', [['169.254.0.0', 16, 'ipv4'], ['fe80::', 10, 'ipv6']]],
];

// A BlockList compares addresses, not their spelling: `::ffff:127.0.0.1`, `::ffff:7f00:1` and the zero-padded long
// form all match 127.0.0.0/8 (an IPv4-mapped IPv6 address is checked against the IPv4 subnets).
const LISTS = RANGES.map(([name, subnets]) => {
  const list = new BlockList();
  for (const [network, prefix, family] of subnets) list.addSubnet(network, prefix, family);
  return { name, list };
});

/** Host names of cloud metadata services, which answer on a link-local address or, in some setups, a proxy. */
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal', 'metadata.azure.com']);

/** A host as URLs write it, without the brackets around an IPv6 address. */
export const unbracketed = (host: string) => host.replace(/^\[|\]$/g, '');

/** The range a literal IP address lies in (`a loopback address`, ...), or undefined when it may be reached. */
export function privateRangeOf(address: string): string | undefined {
  const plain = unbracketed(address);
  const family = isIP(plain);
  if (family === 0) return undefined;
  return LISTS.find(({ list }) => list.check(plain, family === 4 ? 'ipv4' : 'ipv6'))?.name;
}

/** Whether a host name is a cloud metadata service's (case and a trailing dot aside). */
export function isMetadataHostName(hostname: string): boolean {
  return METADATA_HOSTS.has(hostname.toLowerCase().replace(/\.$/, ''));
}
