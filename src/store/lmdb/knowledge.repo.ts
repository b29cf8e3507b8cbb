/**
 * Knowledge bases in LMDB: `knowledge_bases` by id with `knowledge_names` [userId, kind, name] as the unique index;
 * `knowledge_chunks` [kbId, jobId, index]; `knowledge_jobs` by id, `knowledge_job_order` [kbId, startedAt, id] for
 * the newest-first listing and `knowledge_jobs_open` for the unfinished ones.
 */
import type { Database, RootDatabase } from 'lmdb';
import type { ChunkRow, IngestionRecord, KnowledgeBaseRecord } from '../../../protocol/knowledge-base.schema.js';
import type { KnowledgeRepo } from '../knowledge.port.js';
import { NameTakenError } from '../name-taken.error.js';
import { answer } from './answer.js';
import { prefixRange } from './keys.js';

const OPEN = new Set(['queued', 'in_progress']);

export function lmdbKnowledge(env: RootDatabase): KnowledgeRepo {
  const bases: Database<KnowledgeBaseRecord, string> = env.openDB({ name: 'knowledge_bases', encoding: 'msgpack' });
  const names: Database<string, [string, string, string]> = env.openDB({ name: 'knowledge_names', encoding: 'msgpack' });
  const chunks: Database<ChunkRow, [string, string, number]> = env.openDB({ name: 'knowledge_chunks', encoding: 'msgpack' });
  const jobs: Database<IngestionRecord, string> = env.openDB({ name: 'knowledge_jobs', encoding: 'msgpack' });
  const order: Database<string, [string, string, string]> = env.openDB({ name: 'knowledge_job_order', encoding: 'msgpack' });
  const open: Database<true, string> = env.openDB({ name: 'knowledge_jobs_open', encoding: 'msgpack' });

  const removeRange = (db: Database<unknown, any>, ...prefix: string[]) => {
    for (const key of db.getKeys(prefixRange(...prefix))) db.remove(key);
  };

  return {
    get: (id) => answer(() => bases.get(id)),
    getByName: (userId, kind, name) =>
      answer(() => {
        const id = names.get([userId, kind, name]);
        return id ? bases.get(id) : undefined;
      }),
    listByUser: (userId, kind) =>
      answer(() => [...names.getRange(prefixRange(userId, kind))].map(({ value }) => bases.get(value)).filter((r): r is KnowledgeBaseRecord => r !== undefined)),
    insert: (record) =>
      env.transaction(() => {
        if (names.get([record.user_id, record.kind, record.name]) !== undefined) throw new NameTakenError('name', record.name);
        names.put([record.user_id, record.kind, record.name], record.id);
        bases.put(record.id, record);
      }),
    update: (id, change) =>
      env.transaction(() => {
        const current = bases.get(id);
        if (!current) return undefined;
        const next = change(current);
        if (!next) return current;
        bases.put(id, next);
        return next;
      }),
    delete: (id) =>
      env.transaction(() => {
        const record = bases.get(id);
        if (!record) return;
        names.remove([record.user_id, record.kind, record.name]);
        bases.remove(id);
        removeRange(chunks, id);
        for (const { key, value } of order.getRange(prefixRange(id))) {
          order.remove(key);
          jobs.remove(value);
          open.remove(value);
        }
      }),
    putChunks: (kbId, jobId, start, rows) =>
      env.transaction(() => {
        rows.forEach((row, i) => chunks.put([kbId, jobId, start + i], row));
      }),
    chunks: (kbId, jobId, from, count) =>
      answer(() => [...chunks.getRange({ start: [kbId, jobId, from], end: [kbId, jobId, from + count] })].map(({ value }) => value)),
    deleteChunks: (kbId, jobId) => env.transaction(() => removeRange(chunks, kbId, jobId)),
    getJob: (id) => answer(() => jobs.get(id)),
    putJob: (job) =>
      env.transaction(() => {
        // started_at is the job's place in its knowledge base's order: it never changes.
        const before = jobs.get(job.id);
        if (before && before.started_at !== job.started_at) order.remove([before.kb_id, before.started_at, before.id]);
        jobs.put(job.id, job);
        order.put([job.kb_id, job.started_at, job.id], job.id);
        if (OPEN.has(job.status)) open.put(job.id, true);
        else open.remove(job.id);
      }),
    jobsOf: (kbId) =>
      answer(() => {
        const { start, end } = prefixRange(kbId);
        return [...order.getRange({ start: end, end: start, reverse: true })].map(({ value }) => jobs.get(value)).filter((j): j is IngestionRecord => j !== undefined);
      }),
    unfinishedJobs: () => answer(() => [...open.getKeys()].map((id) => jobs.get(id)).filter((j): j is IngestionRecord => j !== undefined)),
    vectorExtension: async () => undefined,
  };
}
