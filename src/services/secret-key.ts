/** The secret that signs tokens and encrypts credentials: configured, or generated once and kept in the store. */
import { randomBytes } from 'node:crypto';
import type { Store } from '../store/port.js';

export async function resolveSecretKey(configured: string | undefined, store: Store): Promise<string> {
  if (configured) return configured;
  const kept = await store.settings.get('secret_key');
  if (kept) return kept;
  // Another instance on the same database may be generating one at this moment: the first stored is everyone's.
  return store.settings.putIfAbsent('secret_key', randomBytes(32).toString('base64url'));
}
