/**
 * An ingestion's work: each file's text, cut into chunks, embedded batch by batch and written through the
 * ingestion's SegmentWriter, with Langflow's chunk metadata (source, file_name, chunk_index, total_chunks,
 * ingested_at, job_id, source_type, source_metadata). A file that cannot be read or is not text is recorded as
 * failed or skipped and the others go on; an embedding failure fails the whole ingestion (the caller rolls back).
 */
import type { ChunkRow, IngestionFile, IngestionItem, IngestionRecord } from '../../../protocol/knowledge-base.schema.js';
import type { EmbeddingsValue } from '../../values/embeddings.js';
import type { SegmentWriter } from '../vectors/segment-writer.js';
import { fileWindows, NotTextError } from './file-text.js';
import { splitRecursively } from './recursive-splitter.js';

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
    let total: number;
    try {
      // A first pass counts the file's chunks: their metadata says how many there are, and a file past the bound
      // fails before anything of it is embedded.
      total = await countChunks(work, file, work.maxChunks - outcome.chunks);
    } catch (error) {
      signal.throwIfAborted();
      if (error instanceof IngestionLimitError) throw error;
      const skipped = error instanceof NotTextError;
      outcome.items.push({ item_id: file.name, display_name: file.name, status: skipped ? 'skipped' : 'failed', chunks_created: 0, error_message: (error as Error).message });
      continue;
    }
    if (total === 0) {
      outcome.items.push({ item_id: file.name, display_name: file.name, status: 'skipped', chunks_created: 0, error_message: 'no extractable text' });
      continue;
    }
    await embedFile(work, file, total, (written) => {
      outcome.chunks += written;
      return work.progress({ file: file.name, files_done: position, files_total: job.files.length, chunks_done: outcome.chunks });
    });
    outcome.items.push({ item_id: file.name, display_name: file.name, status: 'succeeded', chunks_created: total, error_message: null });
    const ext = /\.([A-Za-z0-9]{1,10})$/.exec(file.name)?.[1]?.toLowerCase();
    if (ext && !outcome.sourceTypes.includes(ext)) outcome.sourceTypes.push(ext);
  }
  return outcome;
}

/** The second pass: the file's chunks embedded and written batch by batch (only one batch held at a time). */
async function embedFile(work: IngestionWork, file: IngestionFile, total: number, written: (count: number) => Promise<void>): Promise<void> {
  const { job, signal } = work;
  const sourceMetadata = JSON.stringify({ ...job.user_metadata, ...(job.per_file_metadata[file.name] ?? {}) });
  const base = { source: job.source_name || file.name, file_name: file.name, total_chunks: total, job_id: job.id, source_type: job.source_type, source_metadata: sourceMetadata };
  let index = 0;
  const flush = async (texts: string[]) => {
    const vectors = await work.embeddings.embed(texts, signal);
    const ingestedAt = new Date().toISOString();
    const rows: ChunkRow[] = texts.map((chunk, i) => ({ text: chunk, metadata: { ...base, chunk_index: index + i, ingested_at: ingestedAt } }));
    await work.writer.add(rows, vectors);
    index += rows.length;
    await written(rows.length);
  };
  let batch: string[] = [];
  for await (const chunks of chunkWindows(file, job, signal)) {
    for (const chunk of chunks) {
      batch.push(chunk);
      if (index + batch.length > total) throw new Error(`${file.name} changed while it was being ingested`);
      if (batch.length < BATCH) continue;
      await flush(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await flush(batch);
}

/** How many chunks the file makes; IngestionLimitError as soon as they are more than `room`. */
async function countChunks(work: IngestionWork, file: IngestionFile, room: number): Promise<number> {
  let count = 0;
  for await (const chunks of chunkWindows(file, work.job, work.signal)) {
    count += chunks.length;
    if (count > room) throw new IngestionLimitError(`The files make more than ${work.maxChunks} chunks (FLOWSVC_KNOWLEDGE_MAX_CHUNKS): use a larger chunk_size or ingest them in parts`);
  }
  return count;
}

/** The file's chunks, window by window, with the event loop given back in between. */
async function* chunkWindows(file: IngestionFile, job: IngestionRecord, signal: AbortSignal): AsyncGenerator<string[]> {
  for await (const window of fileWindows(file.path, file.name, signal)) {
    yield splitRecursively(window, { chunkSize: job.chunk_size, chunkOverlap: job.chunk_overlap, separator: job.separator });
    await new Promise<void>((resolve) => setImmediate(resolve));
    signal.throwIfAborted();
  }
}
