/**
 * Reading a knowledge base as its record stands: nearest chunks to a query vector (through the loaded index, then
 * the chunks' text and metadata from the store), one chunk's stored vector, and every committed chunk in order.
 */
import type { ChunkRow, KnowledgeBaseRecord } from '../../protocol/knowledge-base.schema.js';
import type { KnowledgeRepo } from '../store/knowledge.port.js';
import type { SegmentFiles } from './vectors/segment-files.js';
import type { VectorIndexes } from './vectors/vector-indexes.js';

export interface FoundChunk extends ChunkRow {
  id: string;
  /** Cosine similarity to the query. */
  score: number;
  jobId: string;
  index: number;
}

export interface ListedChunk extends ChunkRow {
  id: string;
  jobId: string;
  index: number;
}

const READ_PAGE = 500;
/** A filtered search looks this many times further, then keeps the `k` best that pass (as Langflow's does). */
const FILTER_WIDENING = 4;

export const chunkId = (jobId: string, index: number) => `${jobId}-${index}`;

export class KnowledgeSearch {
  constructor(
    private readonly repo: KnowledgeRepo,
    private readonly files: SegmentFiles,
    private readonly indexes: VectorIndexes,
  ) {}

  /** The `k` chunks nearest to `query` (unit length) that pass `keep`, best first. */
  async nearest(record: KnowledgeBaseRecord, query: Float32Array, k: number, keep?: (chunk: ChunkRow) => boolean): Promise<FoundChunk[]> {
    const index = await this.indexes.of(record);
    if (!index || k <= 0) return [];
    if (query.length !== index.dims) throw new Error(`The query was embedded in ${query.length} dimensions; the knowledge base holds vectors of ${index.dims}: was it made with another embedding model?`);
    const hits = index.search(query, keep ? k * FILTER_WIDENING : k);
    const found: FoundChunk[] = [];
    for (const hit of hits) {
      const { jobId, index: at } = index.locate(hit.ordinal);
      const [row] = await this.repo.chunks(record.id, jobId, at, 1);
      if (!row || (keep && !keep(row))) continue;
      found.push({ ...row, id: chunkId(jobId, at), score: hit.score, jobId, index: at });
      if (found.length === k) break;
    }
    return found;
  }

  /** One chunk's stored vector (include_embeddings). */
  vectorOf(record: KnowledgeBaseRecord, jobId: string, index: number): Promise<number[]> {
    return this.files.readOne(this.files.dirOf(record.user_id, record.id), jobId, index, record.dimensions ?? 0);
  }

  /** Every committed chunk, in the order they were ingested. */
  async *chunks(record: KnowledgeBaseRecord): AsyncGenerator<ListedChunk> {
    for (const segment of record.segments) {
      for (let from = 0; from < segment.count; from += READ_PAGE) {
        const rows = await this.repo.chunks(record.id, segment.job_id, from, Math.min(READ_PAGE, segment.count - from));
        for (let i = 0; i < rows.length; i++) yield { ...rows[i]!, id: chunkId(segment.job_id, from + i), jobId: segment.job_id, index: from + i };
      }
    }
  }
}
