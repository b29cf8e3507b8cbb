/**
 * Whether an address is this machine's own: auto-login hands out superuser tokens, so by default only a client on
 * the same machine gets them (Langflow answers anyone who reaches the port).
 */
import { BlockList, isIP } from 'node:net';

// A BlockList compares addresses, not their spelling (uWS writes IPv6 in full, zero-padded).
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');

export function isLoopback(address: string): boolean {
  const plain = address.replace(/^\[|\]$/g, '');
  if (plain.toLowerCase() === 'localhost') return true;
  const family = isIP(plain);
  return family !== 0 && LOOPBACK.check(plain, family === 4 ? 'ipv4' : 'ipv6');
}
