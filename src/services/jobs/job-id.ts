/**
 * Job ids: UUIDs of version 7 (RFC 9562), whose first 48 bits are the creation time in milliseconds. Jobs are
 * stored by id, and random (version 4) ids put each new job on a random page of the store's B-trees: every commit
 * then wrote one page per job and index. Time-ordered ids append: the jobs of one commit share pages.
 */
import { randomUUID } from 'node:crypto';

export function newJobId(now = Date.now()): string {
  const time = now.toString(16).padStart(12, '0').slice(-12);
  const random = randomUUID();
  // xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx: the time over the first 12 digits, the version digit 4 -> 7.
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(15)}`;
}
