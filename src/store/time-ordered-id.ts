/**
 * Ids for records the store keys by id (v2 jobs, messages): UUIDs of version 7 (RFC 9562), whose first 48 bits
 * are the creation time in milliseconds. Random (version 4) ids put each new record on a random page of the
 * store's B-trees, so every commit wrote one page per record and index; time-ordered ids append, and the records
 * of one commit share pages. Still UUIDs to every client and schema; 74 random bits remain.
 */
import { randomUUID } from 'node:crypto';

export function timeOrderedId(now = Date.now()): string {
  const time = now.toString(16).padStart(12, '0').slice(-12);
  const random = randomUUID();
  // xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx: the time over the first 12 digits, the version digit 4 -> 7.
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(15)}`;
}
