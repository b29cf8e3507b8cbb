/**
 * One vertex of a run: resolves its inputs, runs its component with the run's AbortSignal, and reports to its job
 * as a message (`vertex.done` / `vertex.failed`); a failure never crosses into the job as an exception.
 *
 * This is a task the job starts, not an actor of its own. A component actor per vertex did nothing a task cannot
 * (one message in, one out, no state, no supervision beyond this catch) and cost ~60% of the engine's CPU per
 * vertex: a spawn (reference, path, logger, child maps), a setImmediate turn for its one message, and a stop with
 * another. The job stays the single owner of the run's state: results only reach it through its mailbox.
 */
import { dispatch, type Ref } from 'nact';
import { ComponentError } from '../src/components/component.error.js';
import type { GraphVertex } from '../src/engine/graph.js';
import type { LazyAbortController } from '../src/engine/lazy-abort.js';
import { resolveInputs } from '../src/engine/resolve-inputs.js';
import type { VariableResolver } from '../src/engine/variables.js';
import type { JobMsg } from './job.actor.js';
import type { VertexContext } from './vertex-context.js';

export interface VertexRun {
  vertex: GraphVertex;
  /** The run's cancellation, read through `aborted` so that asking does not make its signal. */
  abort: LazyAbortController;
  edgeValues: Record<string, unknown>;
  overrides: Record<string, unknown> | undefined;
  variables: VariableResolver;
  context: VertexContext;
}

export async function runVertex(job: Ref<JobMsg>, run: VertexRun): Promise<void> {
  const started = performance.now();
  try {
    if (run.abort.aborted) return;
    const { inputs, dynamic } = await resolveInputs(run.vertex, run.edgeValues, run.overrides, run.variables);
    // The context was built for this vertex run alone: completing it in place saves a copy per vertex.
    run.context.dynamic = dynamic;
    const outputs = await run.vertex.component.run(inputs as never, run.context);
    dispatch(job, { type: 'vertex.done', vertexId: run.vertex.id, outputs, durationMs: performance.now() - started });
  } catch (error) {
    dispatch(job, { type: 'vertex.failed', vertexId: run.vertex.id, error: error instanceof Error ? error : new ComponentError(String(error)) });
  }
}
