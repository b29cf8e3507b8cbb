/** The HNSW index's settings, shared by the worker that builds it and the process that maps it. */
import { Index, MetricKind, ScalarKind } from 'usearch';

export interface HnswBuildTask {
  /** Segment files in the knowledge base's order: vector n of the whole is key n. */
  segmentPaths: string[];
  dims: number;
  /** Where the index goes (written under a temporary name, then renamed). */
  out: string;
}

/** Unit-length vectors: inner product is cosine similarity, and usearch's distance is 1 - cosine. */
export function hnswIndex(dimensions: number): Index {
  return new Index({ dimensions, metric: MetricKind.IP, quantization: ScalarKind.F32, connectivity: 16, expansion_add: 128, expansion_search: 64, multi: false });
}
