/**
 * One generation of a knowledge base's vectors, ready to search: its segments end to end (vector n of the whole is
 * the n-th chunk of the committed ingestions, in order), searched exactly (usearch's SIMD brute force) or through
 * the HNSW index once one is built for this generation. Scores are cosine similarities (vectors are unit length).
 */
import { exactSearch, MetricKind, type Index, type Matches } from 'usearch';
import type { Segment } from '../../../protocol/knowledge-base.schema.js';

export interface SearchHit {
  /** Position in the knowledge base's vectors. */
  ordinal: number;
  score: number;
}

export interface ChunkPlace {
  jobId: string;
  index: number;
}

export class LoadedIndex {
  /** Where each segment starts, in ordinals. */
  private readonly starts: number[] = [];
  readonly count: number;

  constructor(
    readonly generation: number,
    readonly dims: number,
    readonly segments: readonly Segment[],
    /** Every vector, for exact search; absent once an HNSW index serves the generation. */
    private readonly matrix: Float32Array | undefined,
    private readonly hnsw: Index | undefined,
  ) {
    let start = 0;
    for (const segment of segments) {
      this.starts.push(start);
      start += segment.count;
    }
    this.count = start;
  }

  get exact(): boolean {
    return this.hnsw === undefined;
  }

  /** Bytes held in the heap (the HNSW index is a mapped file: the page cache holds it, not the heap). */
  get heapBytes(): number {
    return this.matrix?.byteLength ?? 0;
  }

  /** The `k` nearest vectors to `query` (unit length), best first. */
  search(query: Float32Array, k: number): SearchHit[] {
    const wanted = Math.min(k, this.count);
    if (wanted <= 0) return [];
    const matches = this.hnsw ? this.hnsw.search(query, wanted, 1) : exactSearch(this.matrix!, query, this.dims, wanted, MetricKind.IP, 1);
    const hits: SearchHit[] = [];
    const { keys, distances } = matches as Matches;
    for (let i = 0; i < keys.length; i++) hits.push({ ordinal: Number(keys[i]), score: 1 - distances[i]! });
    return hits;
  }

  /** Which ingestion's chunk an ordinal is. */
  locate(ordinal: number): ChunkPlace {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.starts[middle]! <= ordinal) low = middle;
      else high = middle - 1;
    }
    return { jobId: this.segments[low]!.job_id, index: ordinal - this.starts[low]! };
  }
}
