/**
 * Knowledge bases in PostgreSQL (migration 6): `knowledge_bases` (unique per user, kind and name), their chunks by
 * (kb, job, index) and their ingestion jobs. `update` locks the row for its read-modify-write, so two instances
 * committing ingestions into one knowledge base take turns.
 */
import type { Pool } from 'pg';
import type { ChunkRow, IngestionRecord, KnowledgeBaseRecord } from '../../../protocol/knowledge-base.schema.js';
import type { KnowledgeRepo } from '../knowledge.port.js';
import { doc, docs, json, transaction, uniqueNames } from './sql.js';

const OPEN = new Set(['queued', 'in_progress']);
const CHUNKS_PER_INSERT = 500;

export function pgKnowledge(pool: Pool): KnowledgeRepo {
  return {
    get: (id) => doc(pool, 'SELECT doc FROM knowledge_bases WHERE id = $1', [id]),
    getByName: (userId, kind, name) => doc(pool, 'SELECT doc FROM knowledge_bases WHERE user_id = $1 AND kind = $2 AND name = $3', [userId, kind, name]),
    listByUser: (userId, kind) => docs(pool, 'SELECT doc FROM knowledge_bases WHERE user_id = $1 AND kind = $2 ORDER BY name COLLATE "C"', [userId, kind]),
    insert: async (record) => {
      const write = pool.query('INSERT INTO knowledge_bases (id, user_id, kind, name, doc) VALUES ($1, $2, $3, $4, $5)', [record.id, record.user_id, record.kind, record.name, json(record)]);
      await uniqueNames(write, { knowledge_bases_name_key: ['name', record.name] });
    },
    update: (id, change) =>
      transaction(pool, async (client) => {
        const current = await doc<KnowledgeBaseRecord>(client, 'SELECT doc FROM knowledge_bases WHERE id = $1 FOR UPDATE', [id]);
        if (!current) return undefined;
        const next = change(current);
        if (!next) return current;
        await client.query('UPDATE knowledge_bases SET doc = $2 WHERE id = $1', [id, json(next)]);
        return next;
      }),
    delete: (id) =>
      transaction(pool, async (client) => {
        await client.query('DELETE FROM knowledge_chunks WHERE kb_id = $1', [id]);
        await client.query('DELETE FROM knowledge_jobs WHERE kb_id = $1', [id]);
        await client.query('DELETE FROM knowledge_bases WHERE id = $1', [id]);
      }),
    putChunks: async (kbId, jobId, start, rows) => {
      for (let offset = 0; offset < rows.length; offset += CHUNKS_PER_INSERT) {
        const part = rows.slice(offset, offset + CHUNKS_PER_INSERT);
        await pool.query(
          `INSERT INTO knowledge_chunks (kb_id, job_id, idx, doc) SELECT $1, $2, idx, doc FROM unnest($3::int[], $4::json[]) AS t(idx, doc)
           ON CONFLICT (kb_id, job_id, idx) DO UPDATE SET doc = excluded.doc`,
          [kbId, jobId, part.map((_, i) => start + offset + i), part.map((row) => json(row))],
        );
      }
    },
    chunks: (kbId, jobId, from, count) =>
      docs<ChunkRow>(pool, 'SELECT doc FROM knowledge_chunks WHERE kb_id = $1 AND job_id = $2 AND idx >= $3 AND idx < $4 ORDER BY idx', [kbId, jobId, from, from + count]),
    deleteChunks: async (kbId, jobId) => {
      await pool.query('DELETE FROM knowledge_chunks WHERE kb_id = $1 AND job_id = $2', [kbId, jobId]);
    },
    getJob: (id) => doc(pool, 'SELECT doc FROM knowledge_jobs WHERE id = $1', [id]),
    putJob: async (job) => {
      await pool.query(
        `INSERT INTO knowledge_jobs (id, kb_id, started_at, open, doc) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (id) DO UPDATE SET open = excluded.open, doc = excluded.doc`,
        [job.id, job.kb_id, job.started_at, OPEN.has(job.status), json(job)],
      );
    },
    jobsOf: (kbId) => docs<IngestionRecord>(pool, 'SELECT doc FROM knowledge_jobs WHERE kb_id = $1 ORDER BY started_at DESC, id DESC', [kbId]),
    unfinishedJobs: () => docs<IngestionRecord>(pool, 'SELECT doc FROM knowledge_jobs WHERE open', []),
    vectorExtension: async () => ((await pool.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")).rowCount ? 'available' : 'absent'),
  };
}

/** Migration 6: the tables above. */
export const KNOWLEDGE_TABLES = `
CREATE TABLE knowledge_bases (
  id text PRIMARY KEY, user_id text NOT NULL, kind text NOT NULL, name text NOT NULL, doc json NOT NULL,
  CONSTRAINT knowledge_bases_name_key UNIQUE (user_id, kind, name)
);
CREATE TABLE knowledge_chunks (kb_id text NOT NULL, job_id text NOT NULL, idx int NOT NULL, doc json NOT NULL, PRIMARY KEY (kb_id, job_id, idx));
CREATE TABLE knowledge_jobs (id text PRIMARY KEY, kb_id text NOT NULL, started_at text NOT NULL, open boolean NOT NULL, doc json NOT NULL);
CREATE INDEX knowledge_jobs_by_kb ON knowledge_jobs (kb_id, started_at DESC);
CREATE INDEX knowledge_jobs_open ON knowledge_jobs (id) WHERE open;
`;
