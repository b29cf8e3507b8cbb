/**
 * Which vertices a run executes and in what order: the start/stop region, a layered topological sort (Kahn), a
 * cycle error naming its vertices, and the outputs each vertex must compute (only those feeding an edge, or all
 * of them for a vertex without outgoing edges).
 */
import { FlowInvalidError } from '../errors/index.js';
import type { FlowGraph, GraphEdge } from './graph.js';
import { planLoops, type LoopPlan } from './loops.js';

export interface RunPlan {
  /** Layers of the sort: each layer depends only on earlier ones. */
  layers: string[][];
  /** Every vertex that runs. */
  region: ReadonlySet<string>;
  /** Outputs to compute, per vertex. */
  requested: ReadonlyMap<string, ReadonlySet<string>>;
  /** Edges into each vertex of the region from inside the region (what a run waits for). */
  incoming: ReadonlyMap<string, readonly GraphEdge[]>;
  /** Vertices with no predecessor in the region, in flow order: where a run starts. */
  initial: readonly string[];
  /** The region's loop vertices (absent: none), and the loop whose body each body vertex is in. */
  loops?: ReadonlyMap<string, LoopPlan>;
  bodyOf?: ReadonlyMap<string, LoopPlan>;
}

export interface PlanOptions {
  startComponentId?: string;
  stopComponentId?: string;
}

export function planRun(graph: FlowGraph, options: PlanOptions = {}): RunPlan {
  const region = regionOf(graph, options);
  const { loops, bodyOf } = planLoops(graph, region);
  const layers = layeredSort(graph, region);
  const requested = new Map<string, Set<string>>();
  const incoming = new Map<string, GraphEdge[]>();
  for (const id of region) {
    const feeding = graph.outgoing.get(id)!.filter((e) => region.has(e.target)).map((e) => e.sourceOutput);
    const all = graph.vertices.get(id)!.component.outputs.map((o) => o.name);
    requested.set(id, new Set(feeding.length ? feeding : all));
    incoming.set(id, graph.incoming.get(id)!.filter((e) => region.has(e.source)));
  }
  const initial = graph.order.filter((id) => incoming.get(id)?.length === 0);
  return { layers, region, requested, incoming, initial, ...(loops.size ? { loops, bodyOf } : {}) };
}

function regionOf(graph: FlowGraph, { startComponentId, stopComponentId }: PlanOptions): Set<string> {
  for (const id of [startComponentId, stopComponentId]) {
    if (id && !graph.vertices.has(id)) throw new FlowInvalidError(`Component ${id} is not in the flow`, id);
  }
  let region = new Set(graph.order);
  if (stopComponentId) region = closure([stopComponentId], (id) => graph.incoming.get(id)!.map((e) => e.source));
  if (startComponentId) {
    const below = closure([startComponentId], (id) => graph.outgoing.get(id)!.map((e) => e.target));
    const withAncestors = closure(below, (id) => graph.incoming.get(id)!.map((e) => e.source));
    region = new Set([...withAncestors].filter((id) => region.has(id)));
  }
  return region;
}

function closure(from: Iterable<string>, next: (id: string) => string[]): Set<string> {
  const seen = new Set<string>(from);
  const stack = [...seen];
  while (stack.length) {
    for (const n of next(stack.pop()!)) {
      if (!seen.has(n)) {
        seen.add(n);
        stack.push(n);
      }
    }
  }
  return seen;
}

function layeredSort(graph: FlowGraph, region: ReadonlySet<string>): string[][] {
  const inDegree = new Map<string, number>();
  for (const id of graph.order) {
    if (region.has(id)) inDegree.set(id, graph.incoming.get(id)!.filter((e) => region.has(e.source)).length);
  }
  const layers: string[][] = [];
  let current = graph.order.filter((id) => inDegree.get(id) === 0);
  let placed = 0;
  while (current.length) {
    layers.push(current);
    placed += current.length;
    const next: string[] = [];
    for (const id of current) {
      for (const edge of graph.outgoing.get(id)!) {
        if (!region.has(edge.target)) continue;
        const remaining = inDegree.get(edge.target)! - 1;
        inDegree.set(edge.target, remaining);
        if (remaining === 0) next.push(edge.target);
      }
    }
    current = next;
  }
  if (placed < region.size) {
    const stuck = new Set([...inDegree].filter(([, d]) => d > 0).map(([id]) => id));
    const cycle = describeCycle(graph, stuck);
    throw new FlowInvalidError(`The flow has a cycle with no exit: ${cycle}. A cycle runs only through a Loop component: the last component of its body goes back into the Loop's item input, and the Loop's done output leads on`, cycle.split(' -> ')[0]);
  }
  return layers;
}

/** Walks predecessors inside the stuck set until a vertex repeats: that loop is a cycle to name. */
function describeCycle(graph: FlowGraph, stuck: Set<string>): string {
  let id = [...stuck][0];
  const path: string[] = [];
  const seenAt = new Map<string, number>();
  while (!seenAt.has(id)) {
    seenAt.set(id, path.length);
    path.push(id);
    id = graph.incoming.get(id)!.find((e) => stuck.has(e.source))!.source;
  }
  const cycle = path.slice(seenAt.get(id)).reverse();
  return [...cycle, cycle[0]].join(' -> ');
}
