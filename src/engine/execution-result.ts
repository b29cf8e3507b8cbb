/**
 * How the execution of a graph ended, as the engine sees it: every vertex done, a component failed, the job's own
 * code crashed, or someone aborted it. Why a run was aborted (a stop, a timeout, a client gone) and what it means
 * to a caller is the run lifecycle's business (src/runs/), not the engine's.
 */

/** A component threw: the vertex that failed and its error. */
export interface ComponentFailure {
  kind: 'component';
  vertexId: string;
  componentType: string;
  displayName: string;
  error: Error;
}

/** The job's own code threw (a bug): no vertex to blame. */
export interface CrashFailure {
  kind: 'crash';
  error: Error;
}

export type ExecutionEnd = { kind: 'completed' } | ComponentFailure | CrashFailure | { kind: 'aborted' };

export interface ExecutionResult {
  end: ExecutionEnd;
  /** Outputs of each vertex that ran, by output name. */
  results: ReadonlyMap<string, Record<string, unknown>>;
  /** Milliseconds each vertex took. */
  durations: ReadonlyMap<string, number>;
  /** When each vertex ended (epoch ms), in the order they did: what a run's trace places its spans by. */
  ends: ReadonlyMap<string, number>;
  /** Vertices skipped because a router did not choose their branch. */
  skipped: ReadonlySet<string>;
  /**
   * The earlier runs of vertices that ran more than once (a loop's body, once per element), in the order they
   * ended; `results`, `durations` and `ends` hold each vertex's last run. Absent when no vertex ran twice.
   */
  repeats?: readonly VertexRepeat[];
}

/** One earlier run of a vertex that ran again. */
export interface VertexRepeat {
  vertexId: string;
  outputs: Record<string, unknown>;
  durationMs: number;
  /** When it ended (epoch ms). */
  endedAt: number;
}

export const COMPLETED: ExecutionEnd = { kind: 'completed' };
export const ABORTED: ExecutionEnd = { kind: 'aborted' };
