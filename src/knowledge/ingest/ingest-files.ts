/**
 * An ingestion's work: each file's text, cut into chunks, embedded batch by batch and written through the
 * ingestion's SegmentWriter, with Langflow's chunk metadata (source, file_name, chunk_index, total_chunks,
 * ingested_at, job_id, source_type, source_metadata). A file that cannot be read or is not text is recorded as
 * failed or skipped and the others go on; an embedding failure fails the whole ingestion (the caller rolls back).
 */
import type { ChunkRow, IngestionItem, IngestionRecord } from '../../../protocol/knowledge-base.schema.js';
import type { EmbeddingsValue } from '../../values/embeddings.js';
import type { SegmentWriter } from '../vectors/segment-writer.js';
import { fileText, NotTextError } from './file-text.js';
import { splitRecursively, textWindows } from './recursive-splitter.js';

/** Chunks embedded and written together: a progress step, and what is held in memory at once. */
const BATCH = 256;

export class IngestionLimitError extends Error {
  override name = 'IngestionLimitError';
}

export interface IngestionProgress {
  file: string;
  files_done: number;
  files_total: number;
  chunks_done: number;
}

export interface IngestionWork {
  job: IngestionRecord;
  writer: SegmentWriter;
  embeddings: EmbeddingsValue;
  signal: AbortSignal;
  /** Most chunks one ingestion may write. */
  maxChunks: number;
  progress(step: IngestionProgress): Promise<void>;
}

export interface IngestionOutcome {
  items: IngestionItem[];
  chunks: number;
  bytes: number;
  sourceTypes: string[];
}

export async function ingestFiles(work: IngestionWork): Promise<IngestionOutcome> {
  const { job, signal } = work;
  const outcome: IngestionOutcome = { items: [], chunks: 0, bytes: 0, sourceTypes: [] };
  for (const [position, file] of job.files.entries()) {
    signal.throwIfAborted();
    outcome.bytes += file.size;
    let text: string;
    try {
      text = await fileText(file.path, file.name, signal);
    } catch (error) {
      signal.throwIfAborted();
      const skipped = error instanceof NotTextError;
      outcome.items.push({ item_id: file.name, display_name: file.name, status: skipped ? 'skipped' : 'failed', chunks_created: 0, error_message: (error as Error).message });
      continue;
    }
    const chunks = await chunksOf(text, job, signal);
    if (chunks.length === 0) {
      outcome.items.push({ item_id: file.name, display_name: file.name, status: 'skipped', chunks_created: 0, error_message: 'no extractable text' });
      continue;
    }
    if (outcome.chunks + chunks.length > work.maxChunks) {
      throw new IngestionLimitError(`The files make more than ${work.maxChunks} chunks (FLOWSVC_KNOWLEDGE_MAX_CHUNKS): use a larger chunk_size or ingest them in parts`);
    }
    const sourceMetadata = JSON.stringify({ ...job.user_metadata, ...(job.per_file_metadata[file.name] ?? {}) });
    const base = { source: job.source_name || file.name, file_name: file.name, total_chunks: chunks.length, job_id: job.id, source_type: job.source_type, source_metadata: sourceMetadata };
    for (let start = 0; start < chunks.length; start += BATCH) {
      signal.throwIfAborted();
      const texts = chunks.slice(start, start + BATCH);
      const vectors = await work.embeddings.embed(texts, signal);
      const ingestedAt = new Date().toISOString();
      const rows: ChunkRow[] = texts.map((chunk, i) => ({ text: chunk, metadata: { ...base, chunk_index: start + i, ingested_at: ingestedAt } }));
      await work.writer.add(rows, vectors);
      outcome.chunks += rows.length;
      await work.progress({ file: file.name, files_done: position, files_total: job.files.length, chunks_done: outcome.chunks });
    }
    outcome.items.push({ item_id: file.name, display_name: file.name, status: 'succeeded', chunks_created: chunks.length, error_message: null });
    const ext = /\.([A-Za-z0-9]{1,10})$/.exec(file.name)?.[1]?.toLowerCase();
    if (ext && !outcome.sourceTypes.includes(ext)) outcome.sourceTypes.push(ext);
  }
  return outcome;
}

/** The file's chunks, split window by window with the event loop given back in between. */
async function chunksOf(text: string, job: IngestionRecord, signal: AbortSignal): Promise<string[]> {
  const chunks: string[] = [];
  for (const window of textWindows(text)) {
    chunks.push(...splitRecursively(window, { chunkSize: job.chunk_size, chunkOverlap: job.chunk_overlap, separator: job.separator }));
    await new Promise<void>((resolve) => setImmediate(resolve));
    signal.throwIfAborted();
  }
  return chunks;
}
