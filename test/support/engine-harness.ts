/**
 * Builds graphs from component definitions directly, and runs them through the run lifecycle on the actor host
 * over a temporary store, for engine tests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ActorHost } from '../../actors/actor-host.js';
import type { SessionPool } from '../../actors/session-pool.js';
import type { ComponentDefinition, FieldMap } from '../../src/components/contract.js';
import type { RunEvent } from '../../src/engine/events.js';
import { indexEdges, type FlowGraph, type GraphEdge, type GraphVertex } from '../../src/engine/graph.js';
import { planRun, type PlanOptions } from '../../src/engine/plan.js';
import { variableResolver } from '../../src/engine/variables.js';
import { createLogger } from '../../src/logger.js';
import { failureError } from '../../src/runs/failure-table.js';
import type { RunAdapter, RunResult } from '../../src/runs/run-adapter.js';
import { isVertexFailure, type RunFailure } from '../../src/runs/run-failure.js';
import { Runs } from '../../src/runs/run-lifecycle.js';
import { openLmdbStore } from '../../src/store/lmdb/lmdb-store.js';
import type { Store } from '../../src/store/port.js';

export type VertexSpec = [id: string, component: ComponentDefinition<any>, params?: Record<string, unknown>];

export function graphOf(vertices: VertexSpec[], edges: [source: string, output: string, target: string, field: string][]): FlowGraph {
  const map = new Map<string, GraphVertex>();
  for (const [id, component, params = {}] of vertices) {
    map.set(id, { id, type: component.type, displayName: id, component: component as ComponentDefinition<FieldMap>, params, variableFields: new Set(), dynamicFields: [] });
  }
  const list: GraphEdge[] = edges.map(([source, sourceOutput, target, targetField]) => ({ source, sourceOutput, target, targetField }));
  const order = vertices.map(([id]) => id);
  return { vertices: map, order, edges: list, ...indexEdges(order, list) };
}

/** A failure as engine tests read it: a vertex failure as it is, any other with its text as the error. */
export interface HarnessFailure {
  kind: RunFailure['kind'];
  vertexId: string;
  componentType: string;
  displayName: string;
  error: Error;
}

export interface HarnessOutcome extends Omit<RunResult, 'failure'> {
  failure?: HarnessFailure;
}

export interface HarnessRun {
  outcome: Promise<HarnessOutcome>;
  cancel(): void;
}

export interface Harness {
  store: Store;
  /** The session actors (message history) the runs use. */
  sessions: SessionPool;
  /** `timeoutMs` gives this harness's lifecycle a timeout (every run of the harness then has it). */
  run(graph: FlowGraph, options?: PlanOptions & { events?: RunEvent[]; timeoutMs?: number }): HarnessRun;
  close(): Promise<void>;
}

let jobs = 0;

const flat = (failure: RunFailure): HarnessFailure =>
  isVertexFailure(failure) ? failure : { kind: failure.kind, vertexId: '', componentType: '', displayName: '', error: failureError(failure) };

export function harness(): Harness {
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-engine-'));
  const store = openLmdbStore(dir);
  const logger = createLogger('silent');
  const host = new ActorHost(store.messages, logger);
  const lifecycles: Runs[] = [];
  const runsWith = (timeoutMs: number) => {
    const runs = new Runs(host, logger, { timeoutMs, concurrency: 4 });
    lifecycles.push(runs);
    return runs;
  };
  const plain = runsWith(60_000);
  return {
    store,
    sessions: host.sessions,
    run: (graph, options = {}) => {
      const runs = options.timeoutMs ? runsWith(options.timeoutMs) : plain;
      const events = options.events;
      // Every engine event reaches the test, in order, through the log.
      const adapter: RunAdapter<RunResult> = { settle: (_run, result) => result };
      if (events) Object.assign(adapter, { log: { retention: 'until-watched' }, event: (event: RunEvent) => (events.push(event), undefined) });
      const live = runs.start({
        id: `job-${++jobs}`,
        userId: 'user-1',
        flowId: 'flow-1',
        job: { jobId: `job-${jobs}`, flow: { id: 'flow-1', name: 'test', userId: 'user-1' }, sessionId: 'session-1', graph, plan: planRun(graph, options), overrides: new Map(), variables: variableResolver({}) },
        adapter,
      });
      return {
        outcome: live.answer.then(({ failure, ...rest }) => (failure ? { ...rest, failure: flat(failure) } : rest)),
        cancel: () => live.cancel('stop'),
      };
    },
    async close() {
      for (const runs of lifecycles) runs.close();
      host.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
