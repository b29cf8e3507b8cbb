/**
 * Knowledge bases (Langflow's `/api/v1/knowledge_bases`): the records kept in the store (a knowledge base, its
 * ingestion jobs, its chunks) and the wire shapes of the API, in Langflow's field names.
 */
import { z } from 'zod';
import { BoundedId, ID_MAX_CHARS } from './limits.js';

/** Where a vector store came from: the API's knowledge bases, or the persistent stores of the FAISS and Chroma nodes. */
export const VectorStoreKind = z.enum(['knowledge', 'chroma', 'faiss']);
export type VectorStoreKind = z.output<typeof VectorStoreKind>;

/** One committed ingestion: its chunks (store rows) and its vectors (a file beside the knowledge base's index). */
export const Segment = z.object({
  job_id: z.string(),
  count: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  words: z.number().int().nonnegative(),
  characters: z.number().int().nonnegative(),
});
export type Segment = z.output<typeof Segment>;

export const KnowledgeBaseRecord = z.object({
  id: z.string(),
  user_id: z.string(),
  /** The name as stored (spaces made underscores): unique per user and kind. */
  name: z.string(),
  kind: VectorStoreKind,
  embedding_provider: z.string(),
  embedding_model: z.string(),
  /** The unified model field's selection the knowledge base was created with (Langflow's `model_selection`). */
  model_selection: z.unknown().optional(),
  /** Fixed by the first committed ingestion; every later vector must have as many. */
  dimensions: z.number().int().positive().nullable(),
  chunk_size: z.number().int().nullable(),
  chunk_overlap: z.number().int().nullable(),
  separator: z.string().nullable(),
  column_config: z.array(z.record(z.string(), z.unknown())).nullable(),
  chunks: z.number().int().nonnegative(),
  words: z.number().int().nonnegative(),
  characters: z.number().int().nonnegative(),
  size: z.number().int().nonnegative(),
  source_types: z.array(z.string()),
  failure_reason: z.string().nullable(),
  last_job_id: z.string().nullable(),
  /** The committed ingestions, in order: what searches and chunk listings see. */
  segments: z.array(Segment),
  /** Bumped by every commit: an instance holding an index of an older generation loads the new one. */
  generation: z.number().int().nonnegative(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type KnowledgeBaseRecord = z.output<typeof KnowledgeBaseRecord>;

export const IngestionStatus = z.enum(['queued', 'in_progress', 'completed', 'failed', 'cancelled', 'timed_out']);
export type IngestionStatus = z.output<typeof IngestionStatus>;

export const IngestionItem = z.object({
  item_id: z.string(),
  display_name: z.string(),
  status: z.enum(['succeeded', 'failed', 'skipped']),
  chunks_created: z.number().int().nonnegative(),
  error_message: z.string().nullable().optional(),
});
export type IngestionItem = z.output<typeof IngestionItem>;

/** A file an ingestion reads: staged under the knowledge base's directory, or one of the caller's v2 files. */
export const IngestionFile = z.object({ name: z.string(), path: z.string(), size: z.number().int().nonnegative(), staged: z.boolean() });
export type IngestionFile = z.output<typeof IngestionFile>;

export const IngestionRecord = z.object({
  id: z.string(),
  kb_id: z.string(),
  kb_name: z.string(),
  user_id: z.string(),
  status: IngestionStatus,
  source_type: z.string(),
  source_name: z.string().nullable(),
  files: z.array(IngestionFile),
  chunk_size: z.number().int(),
  chunk_overlap: z.number().int(),
  separator: z.string(),
  user_metadata: z.record(z.string(), z.unknown()),
  per_file_metadata: z.record(z.string(), z.record(z.string(), z.unknown())),
  /** The request's global variable headers, sealed: a queued ingestion resumed after a restart still has them. */
  header_globals_sealed: z.string().optional(),
  /** A stop asked on an instance that does not run it: the one running it looks at its record and stops. */
  stop_requested: z.boolean().optional(),
  error_message: z.string().nullable(),
  items: z.array(IngestionItem),
  total_bytes: z.number().int().nonnegative(),
  chunks_created: z.number().int().nonnegative(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
});
export type IngestionRecord = z.output<typeof IngestionRecord>;

/** One chunk as stored: its text and metadata, at its place in its ingestion's segment. */
export interface ChunkRow {
  text: string;
  metadata: Record<string, unknown>;
}

// ---- wire shapes ------------------------------------------------------------------------------------------------

export const KnowledgeBaseInfo = z.object({
  id: z.string(),
  dir_name: z.string(),
  name: z.string(),
  embedding_provider: z.string().nullable(),
  embedding_model: z.string().nullable(),
  size: z.number().int(),
  words: z.number().int(),
  characters: z.number().int(),
  chunks: z.number().int(),
  avg_chunk_size: z.number(),
  chunk_size: z.number().int().nullable(),
  chunk_overlap: z.number().int().nullable(),
  separator: z.string().nullable(),
  status: z.string(),
  failure_reason: z.string().nullable(),
  last_job_id: z.string().nullable(),
  source_types: z.array(z.string()),
  column_config: z.array(z.record(z.string(), z.unknown())).nullable(),
  backend_type: z.string(),
  backend_config: z.record(z.string(), z.unknown()),
});
export type KnowledgeBaseInfo = z.output<typeof KnowledgeBaseInfo>;

/** Longest knowledge base name once spaces became underscores (Chroma's collection names, which Langflow keeps). */
export const KB_NAME_MAX = 63;

export const CreateKnowledgeBaseRequest = z.object({
  name: z.string().max(ID_MAX_CHARS, `The name must be at most ${KB_NAME_MAX} characters`),
  embedding_provider: z.string().max(200),
  embedding_model: z.string().max(200),
  model_selection: z.union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown()))]).nullable().optional(),
  column_config: z.array(z.object({ column_name: z.string().max(200), vectorize: z.boolean().default(false), identifier: z.boolean().default(false) })).max(100).nullable().optional(),
  backend_type: z.string().max(50).default('chroma'),
  backend_config: z.record(z.string(), z.unknown()).default({}),
});
export type CreateKnowledgeBaseRequest = z.output<typeof CreateKnowledgeBaseRequest>;

export const BulkDeleteRequest = z.object({ kb_names: z.array(BoundedId).max(1000) });

export const KbNameParams = z.object({ kb_name: BoundedId });
export const KbRunParams = z.object({ kb_name: BoundedId, run_id: BoundedId });

export const ChunkInfo = z.object({ id: z.string(), content: z.string(), char_count: z.number().int(), metadata: z.record(z.string(), z.unknown()).nullable() });
export const PaginatedChunkResponse = z.object({ chunks: z.array(ChunkInfo), total: z.number().int(), page: z.number().int(), limit: z.number().int(), total_pages: z.number().int() });
export type PaginatedChunkResponse = z.output<typeof PaginatedChunkResponse>;

export const ChunksQuery = z
  .object({
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    limit: z.coerce.number().int().min(1).max(100).default(50),
    search: z.string().max(1000).default(''),
    source_type: z.string().max(200).optional(),
    file_name: z.string().max(1000).optional(),
    job_id: z.string().max(ID_MAX_CHARS).optional(),
  })
  .catchall(z.unknown());

/** What an accepted ingestion answers (Langflow's TaskResponse): `href` is where its progress is read. */
export const TaskResponse = z.object({ id: z.string(), href: z.string() });

export const IngestionRunInfo = z.object({
  id: z.string(),
  kb_name: z.string(),
  kb_id: z.string().nullable(),
  job_id: z.string().nullable(),
  source_type: z.string(),
  source_name: z.string().nullable(),
  status: z.string(),
  error_message: z.string().nullable(),
  total_items: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
  total_bytes: z.number().int(),
  chunks_created: z.number().int(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  user_metadata: z.record(z.string(), z.unknown()),
});
export const IngestionRunDetail = IngestionRunInfo.extend({ source_config: z.record(z.string(), z.unknown()), items: z.array(IngestionItem) });
export const PaginatedIngestionRunResponse = z.object({ runs: z.array(IngestionRunInfo), total: z.number().int(), page: z.number().int(), limit: z.number().int(), total_pages: z.number().int() });
export const RunsQuery = z.object({ page: z.coerce.number().int().min(1).max(1_000_000).default(1), limit: z.coerce.number().int().min(1).max(100).default(50) });
export const RunQuery = z.object({ stream: z.enum(['true', 'false']).optional().transform((v) => v === 'true'), sequence_id: z.coerce.number().int().min(0).optional() });
