/**
 * Jobs in LMDB: `jobs` by id; `jobs_unfinished` holds the ids of queued and running jobs (so start-up recovery
 * does not scan every job ever run); `job_events` holds each finished job's log as one JSON value (written once, when
 * the job ends); `job_events_expiry` orders logs by when retention may drop them.
 */
import type { Database, RootDatabase } from 'lmdb';
import type { JobEvent, JobRecord } from '../../../protocol/job.schema.js';
import { TERMINAL_STATUSES } from '../../../protocol/workflow.schema.js';
import type { JobRepo } from '../port.js';

type ExpiryKey = [expiresAt: number, jobId: string];

export function lmdbJobs(env: RootDatabase): JobRepo {
  const jobs: Database<JobRecord, string> = env.openDB({ name: 'jobs', encoding: 'msgpack' });
  const unfinished: Database<null, string> = env.openDB({ name: 'jobs_unfinished', encoding: 'msgpack' });
  // A log is stored as JSON text: V8's native JSON is several times cheaper than msgpack for these nested
  // message dicts, and a log is written once and rarely read.
  const events: Database<string, string> = env.openDB({ name: 'job_events', encoding: 'string' });
  const expiry: Database<null, ExpiryKey> = env.openDB({ name: 'job_events_expiry', encoding: 'msgpack' });

  return {
    get: (id) => jobs.get(id),
    // Puts issued in one tick share one commit, so the record and its index land together.
    put: async (job) => {
      const index = TERMINAL_STATUSES.has(job.status) ? unfinished.remove(job.id) : unfinished.put(job.id, null);
      await Promise.all([jobs.put(job.id, job), index]);
    },
    unfinished: () => [...unfinished.getKeys()].map((id) => jobs.get(id)).filter((job): job is JobRecord => job !== undefined),
    events: (id) => {
      const text = events.get(id);
      return text === undefined ? undefined : (JSON.parse(text) as JobEvent[]);
    },
    putEvents: async (id, log, expiresAt) => {
      await Promise.all([events.put(id, JSON.stringify(log)), expiry.put([expiresAt, id], null)]);
    },
    async expireEvents(now) {
      const due = [...expiry.getKeys({ end: [now, '\uffff'] })];
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
