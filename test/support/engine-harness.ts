/** Builds graphs from component definitions directly, and an engine over a temporary store, for engine tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ComponentDefinition, FieldMap } from '../../src/components/contract.js';
import { Engine } from '../../src/engine/engine.js';
import type { RunEvent } from '../../src/engine/events.js';
import { indexEdges, type FlowGraph, type GraphEdge, type GraphVertex } from '../../src/engine/graph.js';
import { planRun, type PlanOptions } from '../../src/engine/plan.js';
import { variableResolver } from '../../src/engine/variables.js';
import { createLogger } from '../../src/logger.js';
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

export interface Harness {
  engine: Engine;
  store: Store;
  run(graph: FlowGraph, options?: PlanOptions & { events?: RunEvent[]; timeoutMs?: number }): ReturnType<Engine['run']>;
  close(): Promise<void>;
}

let jobs = 0;

export function harness(): Harness {
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-engine-'));
  const store = openLmdbStore(dir);
  const engine = new Engine(store.messages, createLogger('silent'));
  return {
    engine,
    store,
    run: (graph, options = {}) =>
      engine.run({
        jobId: `job-${++jobs}`,
        flow: { id: 'flow-1', name: 'test', userId: 'user-1' },
        sessionId: 'session-1',
        graph,
        plan: planRun(graph, options),
        overrides: new Map(),
        variables: variableResolver({}),
        emit: (event) => options.events?.push(event),
        timeoutMs: options.timeoutMs,
      }),
    async close() {
      engine.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
