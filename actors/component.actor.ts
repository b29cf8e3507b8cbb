/**
 * Component actor: one per vertex of a run. Resolves the vertex's inputs, runs the component with the run's
 * AbortSignal, and reports to its job as a message (`vertex.done` / `vertex.failed`); a failure never crosses
 * the actor boundary as an exception.
 */
import { dispatch, spawn, stop, type Ref } from 'nact';
import { ComponentError } from '../src/components/component.error.js';
import type { ComponentContext } from '../src/components/contract.js';
import type { GraphVertex } from '../src/engine/graph.js';
import { resolveInputs } from '../src/engine/resolve-inputs.js';
import type { VariableResolver } from '../src/engine/variables.js';
import type { JobMsg } from './job.actor.js';

export type ComponentMsg = {
  type: 'component.run';
  vertex: GraphVertex;
  edgeValues: Record<string, unknown>;
  overrides: Record<string, unknown> | undefined;
  variables: VariableResolver;
  context: Omit<ComponentContext, 'dynamic'>;
};

export function spawnComponent(job: Ref<JobMsg>, name: string): Ref<ComponentMsg> {
  return spawn(
    job,
    async (_state: undefined, msg: ComponentMsg, ctx) => {
      const started = performance.now();
      try {
        if (msg.context.signal.aborted) return;
        const { inputs, dynamic } = await resolveInputs(msg.vertex, msg.edgeValues, msg.overrides, msg.variables);
        // The context was built for this vertex run alone: completing it in place saves a copy per vertex.
        const context = msg.context as ComponentContext;
        context.dynamic = dynamic;
        const outputs = await msg.vertex.component.run(inputs as never, context);
        dispatch(job, { type: 'vertex.done', vertexId: msg.vertex.id, outputs, durationMs: performance.now() - started });
      } catch (error) {
        dispatch(job, { type: 'vertex.failed', vertexId: msg.vertex.id, error: asError(error) });
      } finally {
        stop(ctx.self);
      }
    },
    name,
    {
      // The handler catches everything; reaching here is a bug in the actor itself. Tell the job, then stop.
      onCrash: (msg, error, ctx) => {
        if (msg) dispatch(job, { type: 'vertex.failed', vertexId: msg.vertex.id, error: asError(error) });
        return ctx.stop;
      },
    },
  );
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new ComponentError(String(error));
}
