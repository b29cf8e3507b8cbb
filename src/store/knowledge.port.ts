/**
 * The knowledge bases' part of the storage port: their records, their ingestion jobs and their chunks' text and
 * metadata (vectors are files beside the index, src/knowledge/vectors). A knowledge base sees only what its
 * records' `segments` list: an ingestion writes its chunks first, then commits its segment in one `update`, so a
 * search or a listing never sees half of one. Implemented by src/store/lmdb and src/store/pg.
 */
import type { ChunkRow, IngestionRecord, KnowledgeBaseRecord, VectorStoreKind } from '../../protocol/knowledge-base.schema.js';

/** A change made inside `update`'s atomic read-modify-write: the new record, or undefined to leave it as it is. */
export type KnowledgeBaseChange = (current: KnowledgeBaseRecord) => KnowledgeBaseRecord | undefined;

export interface KnowledgeRepo {
  get(id: string): Promise<KnowledgeBaseRecord | undefined>;
  getByName(userId: string, kind: VectorStoreKind, name: string): Promise<KnowledgeBaseRecord | undefined>;
  /** A user's knowledge bases of one kind, by name. */
  listByUser(userId: string, kind: VectorStoreKind): Promise<KnowledgeBaseRecord[]>;
  /** Creates; rejects with NameTakenError (`name`) when the user already has one of that kind and name. */
  insert(record: KnowledgeBaseRecord): Promise<void>;
  /**
   * Reads the record, applies `change` and writes what it returns, atomically (no other update in between, on any
   * instance); resolves to the record as stored after, or undefined when there is no such record.
   */
  update(id: string, change: KnowledgeBaseChange): Promise<KnowledgeBaseRecord | undefined>;
  /** Removes the record, its chunks and its ingestion records. */
  delete(id: string): Promise<void>;

  /** Stores chunks of one ingestion at `start`, `start + 1`, ... of its segment. */
  putChunks(kbId: string, jobId: string, start: number, chunks: readonly ChunkRow[]): Promise<void>;
  /** Chunks `from` .. `from + count - 1` of one ingestion's segment (missing ones are left out). */
  chunks(kbId: string, jobId: string, from: number, count: number): Promise<ChunkRow[]>;
  /** Removes one ingestion's chunks (a rolled back or replaced segment). */
  deleteChunks(kbId: string, jobId: string): Promise<void>;

  getJob(id: string): Promise<IngestionRecord | undefined>;
  /** Creates or replaces. */
  putJob(job: IngestionRecord): Promise<void>;
  /** A knowledge base's ingestions, newest first. */
  jobsOf(kbId: string): Promise<IngestionRecord[]>;
  /** Ingestions queued or in progress when last written (restart recovery reads these). */
  unfinishedJobs(): Promise<IngestionRecord[]>;

  /**
   * Whether the database offers the pgvector extension (`available` when it could be created or already is);
   * undefined where the store is not PostgreSQL. Start-up says which vector store is used (the files dir, so far).
   */
  vectorExtension(): Promise<'available' | 'absent' | undefined>;
}
