/**
 * The knowledge bases API's service: a user's knowledge bases (another user's is not found, whatever the entry
 * point), their ingestions and chunks. Ingestions run as background runs (ingest/ingestion-runs.ts); this service
 * refuses what can be refused before one exists.
 */
import { randomUUID } from 'node:crypto';
import { VectorStoreKind, type CreateKnowledgeBaseRequest, type IngestionFile, type IngestionRecord, type KnowledgeBaseInfo, type KnowledgeBaseRecord, type PaginatedChunkResponse } from '../../protocol/knowledge-base.schema.js';
import { BadRequestError, ConflictError, NotFoundError } from '../errors/index.js';
import { ComponentError } from '../components/component.error.js';
import { providerOf } from '../components/models/model-selection.js';
import type { KnowledgeRepo } from '../store/knowledge.port.js';
import { NameTakenError } from '../store/name-taken.error.js';
import type { IngestionRuns } from './ingest/ingestion-runs.js';
import { shownName, storedName, validName } from './kb-names.js';
import type { KnowledgeSearch } from './knowledge-search.js';
import { chunkFilter, type ChunkQuery } from './chunk-filter.js';
import type { SegmentFiles } from './vectors/segment-files.js';
import type { VectorIndexes } from './vectors/vector-indexes.js';

export interface IngestOptions {
  files: IngestionFile[];
  chunkSize: number;
  chunkOverlap: number;
  separator: string;
  sourceName: string;
  metadata: Record<string, unknown>;
  perFileMetadata: Record<string, Record<string, unknown>>;
  headerGlobals: Record<string, string>;
}

const notFound = (name: string) => new NotFoundError(`Knowledge base '${name}' not found`);

export class KnowledgeBasesService {
  constructor(
    private readonly repo: KnowledgeRepo,
    readonly ingestions: IngestionRuns,
    readonly search: KnowledgeSearch,
    private readonly files: SegmentFiles,
    private readonly indexes: VectorIndexes,
  ) {}

  async create(userId: string, request: CreateKnowledgeBaseRequest): Promise<KnowledgeBaseInfo> {
    const name = validName(request.name);
    const selected = Array.isArray(request.model_selection) ? request.model_selection[0] : request.model_selection;
    const provider = request.embedding_provider.trim() || String(selected?.provider ?? '');
    try {
      providerOf(provider);
    } catch (error) {
      if (error instanceof ComponentError) throw new NotFoundError('Model provider not found');
      throw error;
    }
    if (!request.embedding_model.trim() && !selected?.name) throw new BadRequestError('Invalid embedding configuration: embedding_model is required');
    const now = new Date().toISOString();
    const record: KnowledgeBaseRecord = {
      id: randomUUID(),
      user_id: userId,
      name,
      kind: 'knowledge',
      embedding_provider: provider,
      embedding_model: request.embedding_model.trim() || String(selected?.name),
      model_selection: request.model_selection ?? undefined,
      dimensions: null,
      chunk_size: null,
      chunk_overlap: null,
      separator: null,
      column_config: request.column_config ?? null,
      chunks: 0,
      words: 0,
      characters: 0,
      size: 0,
      source_types: [],
      failure_reason: null,
      last_job_id: null,
      segments: [],
      generation: 0,
      created_at: now,
      updated_at: now,
    };
    try {
      await this.repo.insert(record);
    } catch (error) {
      if (error instanceof NameTakenError) throw new ConflictError(`Knowledge base '${name}' already exists`);
      throw error;
    }
    return this.info(record);
  }

  async list(userId: string): Promise<KnowledgeBaseInfo[]> {
    const records = await this.repo.listByUser(userId, 'knowledge');
    return Promise.all(records.map((record) => this.info(record)));
  }

  /** The user's knowledge base of that name; not found for any other user's, or a name no knowledge base has. */
  async find(userId: string, name: string): Promise<KnowledgeBaseRecord> {
    const stored = storedName(name);
    const record = stored && (await this.repo.getByName(userId, 'knowledge', stored));
    if (!record) throw notFound(name);
    return record;
  }

  async get(userId: string, name: string): Promise<KnowledgeBaseInfo> {
    return this.info(await this.find(userId, name));
  }

  /** Deletes it: its running ingestions are stopped first (they would find it gone and undo their writes anyway). */
  async delete(userId: string, name: string): Promise<void> {
    const record = await this.find(userId, name);
    await this.drop(record);
  }

  async drop(record: KnowledgeBaseRecord): Promise<void> {
    const unfinished = (await this.repo.jobsOf(record.id)).filter((job) => job.status === 'queued' || job.status === 'in_progress');
    await Promise.all(unfinished.map((job) => this.ingestions.stop(job).catch(() => undefined)));
    await this.repo.delete(record.id);
    this.indexes.forget(record.id);
    await this.files.removeAll(this.files.dirOf(record.user_id, record.id));
  }

  /**
   * A deleted user's knowledge bases go with them, of every kind (the Knowledge node's, FAISS's and Chroma's):
   * records, ingestions, chunks and vector files, then the user's folder of them.
   */
  async dropUser(userId: string): Promise<number> {
    const owned = (await Promise.all(VectorStoreKind.options.map((kind) => this.repo.listByUser(userId, kind)))).flat();
    for (const record of owned) await this.drop(record);
    await this.files.removeAll(this.files.userDir(userId));
    return owned.length;
  }

  async chunks(userId: string, name: string, query: ChunkQuery): Promise<PaginatedChunkResponse> {
    const record = await this.find(userId, name);
    const keep = chunkFilter(query);
    const offset = (query.page - 1) * query.limit;
    const chunks: PaginatedChunkResponse['chunks'] = [];
    let total = 0;
    for await (const chunk of this.search.chunks(record)) {
      if (!keep(chunk)) continue;
      if (total >= offset && total < offset + query.limit) chunks.push({ id: chunk.id, content: chunk.text, char_count: chunk.text.length, metadata: chunk.metadata });
      total++;
    }
    return { chunks, total, page: query.page, limit: query.limit, total_pages: total > 0 ? Math.ceil(total / query.limit) : 0 };
  }

  /** Queues an ingestion of files already staged (or the caller's own v2 files). */
  async ingest(userId: string, name: string, jobId: string, options: IngestOptions): Promise<IngestionRecord> {
    const record = await this.find(userId, name);
    if (options.files.length === 0) throw new BadRequestError('No files provided');
    const job: IngestionRecord = {
      id: jobId,
      kb_id: record.id,
      kb_name: record.name,
      user_id: userId,
      status: 'queued',
      source_type: 'file_upload',
      source_name: options.sourceName || null,
      files: options.files,
      chunk_size: options.chunkSize,
      chunk_overlap: options.chunkOverlap,
      separator: options.separator,
      user_metadata: options.metadata,
      per_file_metadata: options.perFileMetadata,
      error_message: null,
      items: [],
      total_bytes: options.files.reduce((sum, file) => sum + file.size, 0),
      chunks_created: 0,
      started_at: new Date().toISOString(),
      finished_at: null,
    };
    return this.ingestions.submit(job, options.headerGlobals);
  }

  async runs(userId: string, name: string): Promise<IngestionRecord[]> {
    const record = await this.find(userId, name);
    return this.repo.jobsOf(record.id);
  }

  async run(userId: string, name: string, runId: string): Promise<IngestionRecord> {
    const record = await this.find(userId, name);
    const job = await this.repo.getJob(runId);
    if (!job || job.kb_id !== record.id) throw new NotFoundError('Ingestion run not found.');
    return this.ingestions.live(runId)?.adapter ? { ...job, status: this.ingestions.live(runId)!.status as IngestionRecord['status'] } : job;
  }

  /** Langflow's cancel: the knowledge base's latest ingestion, when it has not ended. */
  async cancel(userId: string, name: string): Promise<string> {
    const record = await this.find(userId, name);
    const [latest] = await this.repo.jobsOf(record.id);
    if (!latest) throw new NotFoundError(`No ingestion job found for the knowledge base ${name}`);
    if (latest.status !== 'queued' && latest.status !== 'in_progress') throw new BadRequestError(`Cannot cancel job with status '${latest.status}'`);
    await this.ingestions.stop(latest);
    return `Ingestion job for ${latest.id} cancelled successfully.`;
  }

  private async info(record: KnowledgeBaseRecord): Promise<KnowledgeBaseInfo> {
    const [latest] = await this.repo.jobsOf(record.id);
    const ingesting = latest && (latest.status === 'queued' || latest.status === 'in_progress');
    const status = ingesting ? 'ingesting' : record.failure_reason ? 'failed' : record.chunks > 0 ? 'ready' : 'empty';
    return {
      id: record.id,
      dir_name: record.name,
      name: shownName(record.name),
      embedding_provider: record.embedding_provider,
      embedding_model: record.embedding_model,
      size: record.size,
      words: record.words,
      characters: record.characters,
      chunks: record.chunks,
      avg_chunk_size: record.chunks > 0 ? Math.round((record.characters / record.chunks) * 10) / 10 : 0,
      chunk_size: record.chunk_size,
      chunk_overlap: record.chunk_overlap,
      separator: record.separator,
      status,
      failure_reason: record.failure_reason,
      last_job_id: latest?.id ?? record.last_job_id,
      source_types: record.source_types,
      column_config: record.column_config,
      backend_type: 'chroma',
      backend_config: {},
    };
  }
}
