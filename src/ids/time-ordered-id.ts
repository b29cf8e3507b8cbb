/**
 * Ids for records the store keys by id (flows, v2 jobs, messages): UUIDs of version 7 (RFC 9562), whose first 48
 * bits are the creation time in milliseconds. Random (version 4) ids put each new record on a random page of the
 * store's B-trees, so every commit wrote one page per record and index; time-ordered ids append, and the records
 * of one commit share pages. Still UUIDs to every client and schema.
 *
 * Ids made by this process also sort in the order they were made, within one millisecond too: the 12 bits after
 * the version hold a counter (RFC 9562 method 1), and a clock that steps back does not reorder them. Listings that
 * break ties between equal timestamps by id (a batch of flows created in one commit) then keep creation order.
 * 62 random bits remain.
 */
import { randomUUID } from 'node:crypto';

const COUNTER_MAX = 0xfff;

let lastMs = -1;
let counter = 0;

export function timeOrderedId(): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    counter = freshCounter();
  } else if (++counter > COUNTER_MAX) {
    // 4,096 ids in one millisecond: borrow the next one (the clock catches up within milliseconds).
    lastMs++;
    counter = freshCounter();
  }
  return uuidV7(lastMs, counter);
}

/** The layout: `ms` over the first 12 hex digits, the version 7, `counter` (12 bits), then random variant bits. */
export function uuidV7(ms: number, counter: number): string {
  // randomUUID: xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx; from index 18 on, the variant and 62 random bits.
  return `${timePrefix(ms)}${counter.toString(16).padStart(3, '0')}${randomUUID().slice(18)}`;
}

/** `xxxxxxxx-xxxx-7` for a millisecond, kept for the last one asked: under load many ids share it. */
function timePrefix(ms: number): string {
  if (ms !== prefixMs) {
    const time = ms.toString(16).padStart(12, '0').slice(-12);
    prefix = `${time.slice(0, 8)}-${time.slice(8, 12)}-7`;
    prefixMs = ms;
  }
  return prefix;
}

let prefixMs = -1;
let prefix = '';

/** A new millisecond's counter starts low and at random, leaving room to count up within it. */
const freshCounter = () => Math.floor(Math.random() * (COUNTER_MAX + 1)) >> 1;
