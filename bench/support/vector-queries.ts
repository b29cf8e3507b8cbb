/**
 * Query latency of a knowledge base's search (index, then the chunks' text from LMDB) against usearch alone on the
 * same vectors (exact search up to EXACT_MAX_VECTORS, its HNSW index past it), and LanceDB's flat search when it is
 * installed (`npm i --no-save -E @lancedb/lancedb@0.31.0`: measured for the choice, not a dependency).
 */
import { mkdtempSync, rmSync, statSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exactSearch, MetricKind } from 'usearch';
import type { KnowledgeBaseRecord } from '../../protocol/knowledge-base.schema.js';
import { KnowledgeSearch } from '../../src/knowledge/knowledge-search.js';
import { hnswIndex } from '../../src/knowledge/vectors/hnsw-settings.js';
import { SegmentFiles } from '../../src/knowledge/vectors/segment-files.js';
import { SegmentWriter } from '../../src/knowledge/vectors/segment-writer.js';
import { EXACT_MAX_VECTORS, VectorIndexes } from '../../src/knowledge/vectors/vector-indexes.js';
import { serviceLogger } from '../../src/logger.js';
import { loadConfig } from '../../src/config.js';
import { openLmdbStore } from '../../src/store/lmdb/lmdb-store.js';

export interface QueryFigures {
  oursP50: number;
  oursP99: number;
  libraryP50: number;
  libraryP99: number;
  lanceP50?: number;
  /** Heap bytes of the loaded vectors (exact search), or 0 when an HNSW file is mapped. */
  heapBytes: number;
  hnswFileBytes: number;
  exact: boolean;
}

const QUERIES = 200;

/** Clustered unit vectors (text embeddings have structure; uniform noise is HNSW's worst case). */
export function clusteredVectors(count: number, dims: number, seed = 1): Float32Array {
  let state = seed;
  const random = () => ((state = Math.imul(state ^ (state >>> 15), 2246822519) + 0x9e3779b9) >>> 0) / 2 ** 32 - 0.5;
  const centers = Float32Array.from({ length: 64 * dims }, random);
  const out = new Float32Array(count * dims);
  for (let i = 0; i < count; i++) {
    let norm = 0;
    for (let j = 0; j < dims; j++) {
      const value = centers[(i % 64) * dims + j]! + random() * 0.6;
      out[i * dims + j] = value;
      norm += value * value;
    }
    for (let j = 0; j < dims; j++) out[i * dims + j]! /= Math.sqrt(norm);
  }
  return out;
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

async function timed(run: () => unknown): Promise<number> {
  const start = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export async function measureQueries(count: number, dims: number): Promise<QueryFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-bench-kb-'));
  const store = openLmdbStore(dir, 'off');
  const logger = serviceLogger(loadConfig({}, { LOG_LEVEL: 'silent' }), false);
  try {
    const files = new SegmentFiles(join(dir, 'files'));
    const indexes = new VectorIndexes(files, logger);
    const search = new KnowledgeSearch(store.knowledge, files, indexes);
    const vectors = clusteredVectors(count, dims);
    const now = new Date().toISOString();
    const kb: KnowledgeBaseRecord = { id: 'bench-kb', user_id: 'bench-user', name: 'bench', kind: 'knowledge', embedding_provider: 'OpenAI', embedding_model: 'stand-in', dimensions: null, chunk_size: null, chunk_overlap: null, separator: null, column_config: null, chunks: 0, words: 0, characters: 0, size: 0, source_types: [], failure_reason: null, last_job_id: null, segments: [], generation: 0, created_at: now, updated_at: now };
    await store.knowledge.insert(kb);
    const writer = new SegmentWriter(store.knowledge, files, kb, 'bench-job');
    for (let start = 0; start < count; start += 1000) {
      const n = Math.min(1000, count - start);
      const rows = Array.from({ length: n }, (_, i) => ({ text: `chunk ${start + i}`, metadata: { chunk_index: start + i } }));
      await writer.add(rows, Array.from({ length: n }, (_, i) => vectors.subarray((start + i) * dims, (start + i + 1) * dims)));
    }
    let record = await writer.commit();
    const exact = count <= EXACT_MAX_VECTORS;
    const library = exact ? undefined : hnswIndex(dims);
    if (library) {
      const keys = BigUint64Array.from({ length: count }, (_, i) => BigInt(i));
      library.add(keys, vectors, 1);
      // Ours builds its own in a worker: wait for it, as a search after an ingestion would.
      indexes.afterCommit(record);
      for (let loaded = await indexes.of(record); loaded?.exact; loaded = await indexes.of(record)) await new Promise((r) => setTimeout(r, 200));
    }
    record = (await store.knowledge.get(kb.id))!;
    const queries = Array.from({ length: QUERIES }, (_, i) => vectors.slice(((i * 7919) % count) * dims, ((i * 7919) % count + 1) * dims));
    const ours: number[] = [];
    const alone: number[] = [];
    for (const query of queries) {
      ours.push(await timed(() => search.nearest(record, query, 5)));
      alone.push(await timed(() => (library ? library.search(query, 5, 1) : exactSearch(vectors, query, dims, 5, MetricKind.IP, 1))));
    }
    const loaded = await indexes.of(record);
    const kbDir = files.dirOf(kb.user_id, kb.id);
    const hnswFileBytes = readdirSync(kbDir).filter((f) => f.endsWith('.usearch')).reduce((sum, f) => sum + statSync(join(kbDir, f)).size, 0);
    return { oursP50: percentile(ours, 0.5), oursP99: percentile(ours, 0.99), libraryP50: percentile(alone, 0.5), libraryP99: percentile(alone, 0.99), lanceP50: await lanceP50(vectors, count, dims, queries), heapBytes: loaded?.heapBytes ?? 0, hnswFileBytes, exact };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function lanceP50(vectors: Float32Array, count: number, dims: number, queries: Float32Array[]): Promise<number | undefined> {
  let lancedb: { connect(dir: string): Promise<any> };
  try {
    lancedb = (await import(String('@lancedb/lancedb'))) as typeof lancedb;
  } catch {
    return undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-bench-lance-'));
  try {
    const db = await lancedb.connect(dir);
    const rows = Array.from({ length: count }, (_, i) => ({ id: i, text: `chunk ${i}`, vector: Array.from(vectors.subarray(i * dims, (i + 1) * dims)) }));
    const table = await db.createTable('bench', rows);
    const times: number[] = [];
    for (const query of queries.slice(0, 50)) times.push(await timed(() => table.search(Array.from(query)).distanceType('cosine').limit(5).toArray()));
    return percentile(times, 0.5);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
