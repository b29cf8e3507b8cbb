/**
 * Job actor: one per run. Owns the execution's scheduling state and AbortController, starts a vertex run (a task
 * that reports back as a message, see vertex-run.ts) as each vertex's predecessors finish (independent branches run
 * concurrently), emits the run's events, and settles the caller's promise once with how the execution ended:
 * completed, a component failed (the first error cancels the rest), crashed, or aborted. The run's status, and
 * why it was aborted, belong to the run lifecycle (src/runs/).
 */
import { dispatch, spawn, stop, type Ref } from 'nact';
import type { CallersFiles, CallersKnowledge, ModelDefaults, NetworkPolicy, SessionMemory } from '../src/components/contract.js';
import type { RunEvent } from '../src/engine/events.js';
import { ABORTED, COMPLETED, type ExecutionEnd, type ExecutionResult, type VertexRepeat } from '../src/engine/execution-result.js';
import type { FlowGraph } from '../src/engine/graph.js';
import type { RunPlan } from '../src/engine/plan.js';
import { RunState } from '../src/engine/run-state.js';
import type { VariableResolver } from '../src/engine/variables.js';
import type { LazyAbortController } from '../src/engine/lazy-abort.js';
import type { Logger } from '../src/logger.js';
import type { MessageValue } from '../src/values/message.js';
import './actor-release.js';
import { VertexContext, type RunScope } from './vertex-context.js';
import { runVertex } from './vertex-run.js';

export type JobMsg =
  | { type: 'vertex.done'; vertexId: string; outputs: Record<string, unknown>; durationMs: number }
  | { type: 'vertex.failed'; vertexId: string; error: Error }
  | { type: 'job.abort' };

/** What a caller asks the actors to run; the host adds the session memory, the logger and the event sink. */
export interface JobInput {
  jobId: string;
  flow: { id: string; name: string; userId: string };
  sessionId: string;
  graph: FlowGraph;
  plan: RunPlan;
  /** Field values set by the run request (input_value, session_id), by vertex. */
  overrides: ReadonlyMap<string, Record<string, unknown>>;
  variables: VariableResolver;
  /** The files callers may read (the File component's); absent, a run reads no file. */
  files?: CallersFiles;
  /** URL and API Request may reach loopback, private and metadata addresses (the service's setting; absent: no). */
  allowPrivateNetwork?: boolean;
  /** The service's default models for empty model fields (absent: none set). */
  models?: ModelDefaults;
  /** Knowledge bases and vector stores, for their caller (absent: a run has none). */
  knowledge?: CallersKnowledge;
  /** Commands MCP Tools may run as stdio servers (absent: none). */
  mcpStdioCommands?: readonly string[];
  /** The most elements a loop may iterate over (absent: the engine's default, 1,000). */
  maxLoopIterations?: number;
}

export interface JobSpec extends JobInput {
  memory: SessionMemory;
  logger: Logger;
  emit(event: RunEvent): void;
}

// Shared by every run: a policy is a constant, not per-run state.
const PRIVATE_NETWORK_ALLOWED: NetworkPolicy = Object.freeze({ allowPrivateNetwork: true });
const PRIVATE_NETWORK_REFUSED: NetworkPolicy = Object.freeze({ allowPrivateNetwork: false });

interface JobState {
  run: RunState;
  durations: Map<string, number>;
  ends: Map<string, number>;
  /** Earlier runs of vertices that ran again (loop bodies); made on the first. */
  repeats: VertexRepeat[] | undefined;
  /** When each running loop's vertex started (performance.now()): its duration spans its iterations. */
  loopStarts: Map<string, number> | undefined;
  inFlight: number;
  settled: boolean;
}

export function spawnJob(parent: Ref<never>, spec: JobSpec, controller: LazyAbortController, settle: (result: ExecutionResult) => void): Ref<JobMsg> {
  const { graph, plan } = spec;

  // What every vertex of the run shares, built once per run.
  const scope: RunScope = {
    abort: controller,
    graph,
    flow: spec.flow,
    sessionId: spec.sessionId,
    emit: (event) => {
      if (event.type === 'token') spec.emit({ type: 'token', id: event.messageId, chunk: event.chunk, timestamp: new Date().toISOString() });
      else spec.emit({ type: 'add_message', message: event.message });
    },
    logger: spec.logger,
    variable: (name) => spec.variables.resolve(name),
    memory: {
      // Stored messages are what Langflow streams as add_message.
      store: async (message: MessageValue) => {
        const stored = await spec.memory.store(message);
        spec.emit({ type: 'add_message', message: stored });
        return stored;
      },
      recent: spec.memory.recent,
    },
    callersFiles: spec.files,
    files: undefined,
    callersKnowledge: spec.knowledge,
    knowledge: undefined,
    network: spec.mcpStdioCommands?.length
      ? Object.freeze({ allowPrivateNetwork: spec.allowPrivateNetwork === true, mcpStdioCommands: spec.mcpStdioCommands })
      : spec.allowPrivateNetwork
        ? PRIVATE_NETWORK_ALLOWED
        : PRIVATE_NETWORK_REFUSED,
    models: spec.models,
  };

  function launch(state: JobState, ids: readonly string[], self: Ref<JobMsg>): void {
    for (const id of ids) {
      const vertex = graph.vertices.get(id)!;
      const edgeValues = state.run.inputsFor(id, (field) => vertex.component.fields[field]?.list === true);
      state.inFlight++;
      void runVertex(self, {
        vertex,
        abort: controller,
        edgeValues,
        overrides: spec.overrides.get(id),
        variables: spec.variables,
        context: new VertexContext(scope, id, plan.requested.get(id)!),
      });
    }
  }

  /** The run's first step, taken as the actor is made (a start message would cost an event-loop turn first). */
  function start(state: JobState, self: Ref<JobMsg>): JobState {
    spec.emit({ type: 'vertices_sorted', ids: plan.layers[0] ?? [], to_run: [...plan.region] });
    const initial = state.run.initial();
    if (initial.length === 0) return finish(state, COMPLETED, self);
    launch(state, initial, self);
    return state;
  }

  /** Notes a vertex's end and reports it, unless it starts a loop (a loop is reported once, after its last iteration). */
  function vertexDone(state: JobState, msg: Extract<JobMsg, { type: 'vertex.done' }>): string[] {
    if (state.run.startsLoop(msg.vertexId)) {
      (state.loopStarts ??= new Map()).set(msg.vertexId, performance.now() - msg.durationMs);
      return ended(state, state.run.complete(msg.vertexId, msg.outputs));
    }
    noteEnd(state, msg.vertexId, msg.durationMs, msg.outputs);
    return ended(state, state.run.complete(msg.vertexId, msg.outputs));
  }

  /** Reports the loops that have just run their last iteration, with their final outputs. */
  function ended(state: JobState, ready: string[]): string[] {
    for (const id of state.run.takeEndedLoops()) {
      const outputs = state.run.results.get(id)!;
      noteEnd(state, id, performance.now() - state.loopStarts!.get(id)!, outputs);
    }
    return ready;
  }

  function noteEnd(state: JobState, id: string, durationMs: number, outputs: Record<string, unknown>): void {
    const endedBefore = state.ends.get(id);
    if (endedBefore !== undefined) {
      // A vertex running again (a loop body): its earlier run becomes a repeat, and its end moves to the back.
      (state.repeats ??= []).push({ vertexId: id, outputs: state.run.results.get(id)!, durationMs: state.durations.get(id)!, endedAt: endedBefore });
      state.ends.delete(id);
    }
    state.durations.set(id, durationMs);
    state.ends.set(id, Date.now());
    const vertex = graph.vertices.get(id)!;
    spec.emit({ type: 'end_vertex', id, componentType: vertex.type, displayName: vertex.displayName, valid: true, outputs, durationMs });
  }

  function finish(state: JobState, end: ExecutionEnd, self: Ref<JobMsg>): JobState {
    if (state.settled) return state;
    if (end.kind !== 'completed') controller.abort();
    settle({ end, results: state.run.results, durations: state.durations, ends: state.ends, skipped: state.run.skipped, ...(state.repeats ? { repeats: state.repeats } : {}) });
    stop(self);
    return { ...state, settled: true };
  }

  return spawn(
    parent,
    (state: JobState, msg: JobMsg, ctx) => {
      if (state.settled) return state;
      switch (msg.type) {
        case 'vertex.done': {
          state.inFlight--;
          let ready: string[];
          try {
            ready = vertexDone(state, msg);
          } catch (error) {
            const vertex = graph.vertices.get(msg.vertexId)!;
            return finish(state, { kind: 'component', vertexId: vertex.id, componentType: vertex.type, displayName: vertex.displayName, error: error as Error }, ctx.self);
          }
          launch(state, ready, ctx.self);
          if (state.run.finished && state.inFlight === 0) return finish(state, COMPLETED, ctx.self);
          return state;
        }
        case 'vertex.failed': {
          state.inFlight--;
          if (controller.aborted) return state;
          const vertex = graph.vertices.get(msg.vertexId)!;
          return finish(state, { kind: 'component', vertexId: vertex.id, componentType: vertex.type, displayName: vertex.displayName, error: msg.error }, ctx.self);
        }
        case 'job.abort':
          return finish(state, ABORTED, ctx.self);
      }
    },
    spec.jobId,
    {
      // nact makes the initial state inside spawn, with the actor already registered: the first vertices start
      // there, and their reports reach the mailbox as usual.
      initialStateFunc: (ctx) => start({ run: new RunState(graph, plan, spec.maxLoopIterations), durations: new Map(), ends: new Map(), repeats: undefined, loopStarts: undefined, inFlight: 0, settled: false }, ctx.self as Ref<JobMsg>),
      // A bug in the job's own handler fails the run rather than leaving the caller waiting.
      onCrash: (_msg, error, ctx) => {
        spec.logger.error({ err: error, jobId: spec.jobId }, 'job actor crashed');
        controller.abort();
        settle({ end: { kind: 'crash', error: error ?? new Error('job crashed') }, results: new Map(), durations: new Map(), ends: new Map(), skipped: new Set() });
        return ctx.stop;
      },
    },
  );
}
