/**
 * Jobs in LMDB: `jobs` by id; `jobs_unfinished` holds the ids of queued and running jobs (so start-up recovery
 * does not scan every job ever run); `job_events` holds each finished job's log as one JSON value (written once, when
 * the job ends); `job_events_expiry` orders logs by when retention may drop them.
 */
import type { Database, RootDatabase } from 'lmdb';
import type { JobEvent, JobRecord } from '../../../protocol/job.schema.js';
import { TERMINAL_STATUSES } from '../../../protocol/workflow.schema.js';
import type { JobRepo } from '../port.js';
import { answer } from './answer.js';
import { HIGH } from './keys.js';

type ExpiryKey = [expiresAt: number, jobId: string];

export function lmdbJobs(env: RootDatabase): JobRepo {
  // Records and logs are stored as JSON text: V8's native JSON is several times cheaper than msgpack for these
  // nested reply and message dicts (the record's response is the sync reply's text, already encoded), and they are
  // written once and rarely read. Records written as msgpack objects by earlier versions still read as they are.
  const jobs: Database<string | JobRecord, string> = env.openDB({ name: 'jobs', encoding: 'msgpack' });
  const unfinished: Database<null, string> = env.openDB({ name: 'jobs_unfinished', encoding: 'msgpack' });
  const events: Database<string, string> = env.openDB({ name: 'job_events', encoding: 'string' });
  const expiry: Database<null, ExpiryKey> = env.openDB({ name: 'job_events_expiry', encoding: 'msgpack' });

  const get = (id: string): JobRecord | undefined => {
    const stored = jobs.get(id);
    return typeof stored === 'string' ? (JSON.parse(stored) as JobRecord) : stored;
  };

  return {
    get: (id) => answer(() => get(id)),
    // Puts issued in one tick share one commit, so the record and its index land together.
    put: async (job) => {
      const index = TERMINAL_STATUSES.has(job.status) ? unfinished.remove(job.id) : unfinished.put(job.id, null);
      await Promise.all([jobs.put(job.id, JSON.stringify(job)), index]);
    },
    unfinished: () => answer(() => [...unfinished.getKeys()].map(get).filter((job): job is JobRecord => job !== undefined)),
    events: (id) =>
      answer(() => {
        const text = events.get(id);
        return text === undefined ? undefined : (JSON.parse(text) as JobEvent[]);
      }),
    putFinished: async ({ record, recordJson, logJson, expiresAt }) => {
      // Plain puts of one tick: one commit for the four (never awaited one by one).
      const writes = [jobs.put(record.id, recordJson), unfinished.remove(record.id), events.put(record.id, logJson), expiry.put([expiresAt, record.id], null)];
      await Promise.all(writes);
      return true;
    },
    async expireEvents(now) {
      const due = [...expiry.getKeys({ end: [now, HIGH] })];
      if (due.length === 0) return 0;
      await env.transaction(() => {
        for (const key of due) {
          expiry.remove(key);
          events.remove(key[1]);
        }
      });
      return due.length;
    },
  };
}
