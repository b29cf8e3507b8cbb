/** RFC 4122 name-based UUIDs (version 5, SHA-1), as Python's uuid.uuid5: Langflow derives public build ids this way. */
import { createHash } from 'node:crypto';

export const NAMESPACE_DNS = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';

export function uuid5(name: string, namespace: string = NAMESPACE_DNS): string {
  const hash = createHash('sha1').update(Buffer.from(namespace.replace(/-/g, ''), 'hex')).update(name, 'utf8').digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
