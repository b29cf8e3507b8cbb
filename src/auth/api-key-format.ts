/** API key format (`sk-` + 43 url-safe characters, as Langflow) and the hash we store instead of the key. */
import { createHash, randomBytes } from 'node:crypto';

export function generateApiKey(): string {
  return `sk-${randomBytes(32).toString('base64url')}`;
}

/** sha256 is enough: keys carry 256 random bits, and a cheap hash keeps per-request auth fast. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Langflow's masked form: the first 8 characters, then stars for the rest. */
export function maskApiKey(prefix: string, length = 46): string {
  return prefix + '*'.repeat(Math.max(0, length - prefix.length));
}
