/**
 * The searchable vectors of every knowledge base this process has searched, by knowledge base, each for the
 * generation its record had when loaded (a commit on any instance bumps it, and the next search loads anew).
 * Up to EXACT_MAX_VECTORS a knowledge base is searched exactly from its vectors in memory; past it through an HNSW
 * index built once per generation in a worker and mapped from its file (every instance maps the same file in
 * cluster mode). Until that index is ready, searches stay exact: slower, never wrong.
 */
import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { KnowledgeBaseRecord } from '../../../protocol/knowledge-base.schema.js';
import { WorkerPool } from '../../components/data-operations/guarded-worker.js';
import type { Logger } from '../../logger.js';
import { LoadedIndex } from './loaded-index.js';
import { hnswIndex, type HnswBuildTask } from './hnsw-settings.js';
import type { SegmentFiles } from './segment-files.js';

/**
 * Past this many vectors a knowledge base gets an HNSW index. Below it exact search costs about a millisecond per
 * query (10k vectors of 384 dimensions, `npm run bench -- knowledge`) and needs no index build at each ingestion.
 */
export const EXACT_MAX_VECTORS = 20_000;
/** Vectors held in the heap for exact search, across knowledge bases: past it the least recently used go. */
const HEAP_BUDGET_BYTES = 1 << 30;
const BUILD_TIMEOUT_MS = 60 * 60 * 1000;

interface Entry {
  generation: number;
  loaded: Promise<LoadedIndex>;
  used: number;
  /** Heap bytes of its vectors, once loaded. */
  bytes?: number;
}

export class VectorIndexes {
  private readonly entries = new Map<string, Entry>();
  private readonly building = new Map<string, Promise<void>>();
  private workers: WorkerPool | undefined;

  constructor(
    private readonly files: SegmentFiles,
    private readonly logger: Logger,
    private readonly exactMax = EXACT_MAX_VECTORS,
  ) {}

  /** The knowledge base's vectors as its record stands; undefined when it has none. */
  async of(record: KnowledgeBaseRecord): Promise<LoadedIndex | undefined> {
    if (!record.dimensions || record.segments.every((segment) => segment.count === 0)) return undefined;
    const kept = this.entries.get(record.id);
    if (kept && kept.generation === record.generation) {
      kept.used = Date.now();
      const loaded = await kept.loaded;
      // An exact index of a large knowledge base is swapped for the HNSW one as soon as its file is there.
      if (!loaded.exact || !existsSync(this.hnswPath(record))) return loaded;
    }
    const loaded = this.load(record);
    const entry: Entry = { generation: record.generation, loaded, used: Date.now() };
    this.entries.set(record.id, entry);
    loaded.catch(() => this.entries.delete(record.id));
    const index = await loaded;
    entry.bytes = index.heapBytes;
    this.keepWithinBudget(record.id);
    return index;
  }

  /** A knowledge base changed or went: its loaded vectors are let go. */
  forget(kbId: string): void {
    this.entries.delete(kbId);
  }

  /** After a commit: a knowledge base past the exact bound gets its index for the new generation, in the background. */
  afterCommit(record: KnowledgeBaseRecord): void {
    const total = record.segments.reduce((sum, segment) => sum + segment.count, 0);
    if (total > this.exactMax && record.dimensions) void this.buildHnsw(record);
  }

  close(): void {
    this.entries.clear();
  }

  private async load(record: KnowledgeBaseRecord): Promise<LoadedIndex> {
    const dims = record.dimensions!;
    const total = record.segments.reduce((sum, segment) => sum + segment.count, 0);
    const hnswPath = this.hnswPath(record);
    if (total > this.exactMax && existsSync(hnswPath)) {
      const index = hnswIndex(dims);
      index.view(hnswPath);
      return new LoadedIndex(record.generation, dims, record.segments, undefined, index);
    }
    const dir = this.files.dirOf(record.user_id, record.id);
    const matrix = new Float32Array(total * dims);
    let offset = 0;
    for (const segment of record.segments) {
      if (segment.count === 0) continue;
      const vectors = await this.files.read(dir, segment.job_id);
      if (vectors.length !== segment.count * dims) throw new Error(`the vectors of ingestion ${segment.job_id} are damaged (${vectors.length} values, expected ${segment.count * dims})`);
      matrix.set(vectors, offset);
      offset += vectors.length;
    }
    if (total > this.exactMax) void this.buildHnsw(record);
    return new LoadedIndex(record.generation, dims, record.segments, matrix, undefined);
  }

  private hnswPath(record: KnowledgeBaseRecord): string {
    return join(this.files.dirOf(record.user_id, record.id), `hnsw-${record.generation}.usearch`);
  }

  private buildHnsw(record: KnowledgeBaseRecord): Promise<void> {
    const out = this.hnswPath(record);
    const running = this.building.get(out);
    if (running) return running;
    const dir = this.files.dirOf(record.user_id, record.id);
    const task: HnswBuildTask = { segmentPaths: record.segments.filter((s) => s.count > 0).map((s) => this.files.segmentPath(dir, s.job_id)), dims: record.dimensions!, out };
    this.workers ??= new WorkerPool(new URL('./hnsw-build.worker.js', import.meta.url), 1);
    const started = Date.now();
    const built = this.workers
      .run<number>(task, { timeoutMs: BUILD_TIMEOUT_MS })
      .then(async (vectors) => {
        this.logger.info({ kbId: record.id, vectors, ms: Date.now() - started }, 'knowledge base index built');
        await removeOlderIndexes(dir, record.generation);
      })
      .catch((err: unknown) => this.logger.warn({ err, kbId: record.id }, 'knowledge base index could not be built: searches stay exact'))
      .finally(() => this.building.delete(out));
    this.building.set(out, built);
    return built;
  }

  private keepWithinBudget(keep: string): void {
    let total = 0;
    for (const entry of this.entries.values()) total += entry.bytes ?? 0;
    if (total <= HEAP_BUDGET_BYTES) return;
    for (const [id, entry] of [...this.entries].sort((a, b) => a[1].used - b[1].used)) {
      if (total <= HEAP_BUDGET_BYTES) return;
      if (id === keep) continue;
      this.entries.delete(id);
      total -= entry.bytes ?? 0;
    }
  }
}

/** HNSW files of generations before `generation` (the mapped ones stay readable to whoever maps them). */
async function removeOlderIndexes(dir: string, generation: number): Promise<void> {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const match = /^hnsw-(\d+)\.usearch$/.exec(name);
    if (match && Number(match[1]) < generation) await rm(join(dir, name), { force: true });
  }
}
