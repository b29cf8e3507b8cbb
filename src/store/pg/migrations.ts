/**
 * The PostgreSQL schema, as numbered migrations applied in order (migrate.ts). Never edit one that has shipped: add
 * the next. Each repo owns its tables; a new repo adds a migration of its own. Records are kept whole as JSON (`doc`),
 * beside the columns their lookups, unique names and listings need.
 */
import { KNOWLEDGE_TABLES } from './knowledge.repo.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** One appended message per call: locks the session row, takes its next sequence number (see messages.repo.ts). */
const APPEND_MESSAGES = `
CREATE FUNCTION append_messages(ids text[], flow_keys text[], session_ids text[], seqs bigint[], docs json[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  stored record;
  next_seq bigint;
BEGIN
  FOR i IN 1 .. coalesce(array_length(ids, 1), 0) LOOP
    SELECT flow_key, session_id INTO stored FROM messages WHERE id = ids[i];
    IF FOUND AND stored.flow_key = flow_keys[i] AND stored.session_id = session_ids[i] THEN
      -- An edit: the message keeps its place in the history.
      UPDATE messages SET doc = docs[i] WHERE id = ids[i];
      CONTINUE;
    END IF;
    IF FOUND THEN
      DELETE FROM messages WHERE id = ids[i];
    END IF;
    -- The upsert locks the session row until commit: appends to one session take their numbers one at a time.
    INSERT INTO message_sessions AS s (flow_key, session_id, last_seq) VALUES (flow_keys[i], session_ids[i], seqs[i])
      ON CONFLICT (flow_key, session_id) DO UPDATE SET last_seq = greatest(s.last_seq + 1, excluded.last_seq)
      RETURNING last_seq INTO next_seq;
    INSERT INTO messages (id, flow_key, session_id, seq, doc) VALUES (ids[i], flow_keys[i], session_ids[i], next_seq, docs[i]);
  END LOOP;
END
$$;`;

/**
 * Migration 5's append: as APPEND_MESSAGES, and every change to a session's history (an append, an edit, a message
 * moved out) adds one to the session's `changes`.
 */
const APPEND_COUNTED_MESSAGES = `
CREATE OR REPLACE FUNCTION append_messages(ids text[], flow_keys text[], session_ids text[], seqs bigint[], docs json[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  stored record;
  next_seq bigint;
BEGIN
  FOR i IN 1 .. coalesce(array_length(ids, 1), 0) LOOP
    SELECT flow_key, session_id INTO stored FROM messages WHERE id = ids[i];
    IF FOUND AND stored.flow_key = flow_keys[i] AND stored.session_id = session_ids[i] THEN
      UPDATE messages SET doc = docs[i] WHERE id = ids[i];
      UPDATE message_sessions SET changes = changes + 1 WHERE flow_key = stored.flow_key AND session_id = stored.session_id;
      CONTINUE;
    END IF;
    IF FOUND THEN
      DELETE FROM messages WHERE id = ids[i];
      UPDATE message_sessions SET changes = changes + 1 WHERE flow_key = stored.flow_key AND session_id = stored.session_id;
    END IF;
    INSERT INTO message_sessions AS s (flow_key, session_id, last_seq, changes) VALUES (flow_keys[i], session_ids[i], seqs[i], 1)
      ON CONFLICT (flow_key, session_id) DO UPDATE SET last_seq = greatest(s.last_seq + 1, excluded.last_seq), changes = s.changes + 1
      RETURNING last_seq INTO next_seq;
    INSERT INTO messages (id, flow_key, session_id, seq, doc) VALUES (ids[i], flow_keys[i], session_ids[i], next_seq, docs[i]);
  END LOOP;
END
$$;`;

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
-- Bumped on every write of a record read through getShared: a reader that holds a version skips the record's transfer.
CREATE SEQUENCE record_versions;
CREATE TABLE settings (name text PRIMARY KEY, value text NOT NULL);
CREATE TABLE users (id text PRIMARY KEY, username text NOT NULL CONSTRAINT users_username_key UNIQUE, version bigint NOT NULL DEFAULT nextval('record_versions'), doc json NOT NULL);
CREATE TABLE api_keys (id text PRIMARY KEY, hash text NOT NULL UNIQUE, user_id text NOT NULL, doc json NOT NULL);
CREATE INDEX api_keys_user ON api_keys (user_id);
CREATE TABLE flows (
  id text PRIMARY KEY, owner text NOT NULL, folder_id text, name text NOT NULL, endpoint_name text,
  version bigint NOT NULL DEFAULT nextval('record_versions'), doc json NOT NULL,
  CONSTRAINT flows_name_key UNIQUE (owner, name),
  CONSTRAINT flows_endpoint_name_key UNIQUE (owner, endpoint_name)
);
CREATE INDEX flows_folder ON flows (folder_id);
CREATE TABLE projects (id text PRIMARY KEY, owner text NOT NULL, name text NOT NULL, doc json NOT NULL, CONSTRAINT projects_name_key UNIQUE (owner, name));
CREATE TABLE variables (id text PRIMARY KEY, user_id text NOT NULL, name text NOT NULL, doc json NOT NULL, CONSTRAINT variables_name_key UNIQUE (user_id, name));
CREATE TABLE files (id text PRIMARY KEY, user_id text NOT NULL, doc json NOT NULL);
CREATE INDEX files_user ON files (user_id);
CREATE TABLE message_sessions (flow_key text NOT NULL, session_id text NOT NULL, last_seq bigint NOT NULL, PRIMARY KEY (flow_key, session_id));
CREATE TABLE messages (
  id text PRIMARY KEY, flow_key text NOT NULL, session_id text NOT NULL, seq bigint NOT NULL, doc json NOT NULL,
  CONSTRAINT messages_seq_key UNIQUE (flow_key, session_id, seq)
);
${APPEND_MESSAGES}
CREATE TABLE flow_versions (flow_id text NOT NULL, hash text NOT NULL, created_at text NOT NULL, data json, PRIMARY KEY (flow_id, hash));
CREATE TABLE jobs (id text PRIMARY KEY, unfinished boolean NOT NULL, doc text NOT NULL);
CREATE INDEX jobs_unfinished ON jobs (id) WHERE unfinished;
CREATE TABLE job_events (id text PRIMARY KEY, log text NOT NULL, expires_at bigint NOT NULL);
CREATE INDEX job_events_expiry ON job_events (expires_at);
CREATE TABLE responses (id text PRIMARY KEY, in_progress boolean NOT NULL, doc json NOT NULL);
CREATE INDEX responses_in_progress ON responses (id) WHERE in_progress;
`,
  },
  {
    version: 2,
    name: 'vertex builds',
    sql: `
CREATE TABLE vertex_builds (seq bigserial PRIMARY KEY, flow_id text NOT NULL, vertex_id text NOT NULL, doc json NOT NULL);
CREATE INDEX vertex_builds_vertex ON vertex_builds (flow_id, vertex_id, seq);
`,
  },
  {
    version: 3,
    name: 'run traces',
    sql: `
CREATE TABLE run_traces (
  id text PRIMARY KEY, user_id text NOT NULL, flow_id text NOT NULL, session_id text NOT NULL, started_at bigint NOT NULL,
  span_count int NOT NULL, expires_at bigint NOT NULL, doc text NOT NULL
);
CREATE INDEX run_traces_listing ON run_traces (user_id, flow_id, started_at DESC);
CREATE INDEX run_traces_expiry ON run_traces (expires_at);
`,
  },
  {
    version: 4,
    name: 'job leases',
    sql: `
-- The shared job queue (job-leases.repo.ts): state is queued, running or ended; epoch grows at every change of hands.
CREATE TABLE job_leases (
  id text PRIMARY KEY, state text NOT NULL, owner text, epoch int NOT NULL DEFAULT 0, lease_until bigint,
  stop_requested boolean NOT NULL DEFAULT false
);
CREATE INDEX job_leases_queued ON job_leases (id COLLATE "C") WHERE state = 'queued';
CREATE INDEX job_leases_running ON job_leases (lease_until) WHERE state = 'running';
`,
  },
  {
    version: 5,
    name: 'session change counts',
    sql: `
-- Counts every change to a session's history. An instance that caches a history compares the count before serving
-- it, so a turn stored through another instance is in the next read (actors/session.actor.ts). Rows are never
-- removed: a count that went back to zero could match a stale cache.
ALTER TABLE message_sessions ADD COLUMN changes bigint NOT NULL DEFAULT 0;
${APPEND_COUNTED_MESSAGES}
`,
  },
  { version: 6, name: 'knowledge bases', sql: KNOWLEDGE_TABLES },
  {
    version: 7,
    name: 'job record write times',
    sql: `
-- When a job's record was last written, by the database's clock: the lease sweeper ends an unfinished job that has no
-- lease row only once its record is older than a grace (job-leases.repo.ts). Rows written before this are old (0).
ALTER TABLE jobs ADD COLUMN written_ms bigint NOT NULL DEFAULT 0;
`,
  },
];
