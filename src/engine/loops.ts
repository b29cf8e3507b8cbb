/**
 * Loop planning: for each loop vertex of a run (a component with `loop`, Langflow's Loop), the body its iterations
 * run and the loop edge that brings each iteration's result back. The body is every vertex downstream of the
 * loop's `item` output: each runs once per element. Vertices the body reads from outside it run once, before the
 * first iteration, and their results serve every iteration (Langflow rebuilds them in each; their outputs are the
 * same). A loop that could never end, or whose result could never come back, is a FlowInvalidError naming the
 * loop's node before anything runs.
 */
import { FlowInvalidError } from '../errors/index.js';
import type { FlowGraph, GraphEdge, GraphVertex } from './graph.js';

export interface LoopPlan {
  /** The loop vertex. */
  id: string;
  item: string;
  done: string;
  /** The loop edge into `item`; absent when nothing hangs off `item` (then there is nothing to run per element). */
  feedback?: GraphEdge;
  /** The vertices each iteration runs. */
  body: ReadonlySet<string>;
  /** Per body vertex, the edges it waits for again in each later iteration: those from the loop and the body. */
  rewait: ReadonlyMap<string, number>;
}

/** The loops of a region (each loop's body joins the region), and which loop each body vertex belongs to. */
export function planLoops(graph: FlowGraph, region: Set<string>): { loops: Map<string, LoopPlan>; bodyOf: Map<string, LoopPlan> } {
  const loops = new Map<string, LoopPlan>();
  const bodyOf = new Map<string, LoopPlan>();
  for (const id of graph.order) {
    const vertex = graph.vertices.get(id)!;
    if (!vertex.component.loop || !region.has(id)) continue;
    const loop = planLoop(graph, vertex);
    loops.set(id, loop);
    for (const member of loop.body) {
      if (bodyOf.has(member)) throw invalid(vertex, `its body holds ${describe(graph, member)}, which another loop's body holds too; loops inside loops are not supported`);
      bodyOf.set(member, loop);
    }
    // A region cut at the loop (a stop component after `done`) still runs the loop's body and what it reads.
    for (const member of ancestorsOf(graph, loop.body)) region.add(member);
  }
  for (const id of loops.keys()) {
    const outer = bodyOf.get(id);
    if (outer) throw invalid(graph.vertices.get(id)!, `it is inside the body of ${describe(graph, outer.id)}; loops inside loops are not supported`);
  }
  return { loops, bodyOf };
}

function planLoop(graph: FlowGraph, vertex: GraphVertex): LoopPlan {
  const { item, done } = vertex.component.loop!;
  const starts = graph.outgoing.get(vertex.id)!.filter((e) => e.sourceOutput === item).map((e) => e.target);
  const feedbacks = (graph.loopEdges ?? []).filter((e) => e.target === vertex.id);
  if (feedbacks.length > 1) throw invalid(vertex, `${feedbacks.length} loop edges come back into its ${item} input (from ${feedbacks.map((e) => describe(graph, e.source)).join(', ')}); a loop takes one`);
  const feedback = feedbacks[0];
  const body = descendantsOf(graph, starts, vertex.id);
  if (starts.length > 0 && !feedback) {
    throw invalid(vertex, `its ${item} output feeds ${starts.map((id) => describe(graph, id)).join(', ')}, but nothing comes back into its ${item} input, so no iteration has a result: connect the loop's last component back to ${item}`);
  }
  if (feedback && !body.has(feedback.source)) {
    throw invalid(vertex, `the loop edge into its ${item} input comes from ${describe(graph, feedback.source)}, which is not downstream of its ${item} output`);
  }
  const descendants = descendantsOf(graph, graph.outgoing.get(vertex.id)!.map((e) => e.target), vertex.id);
  const rewait = new Map<string, number>();
  for (const member of body) {
    let again = 0;
    for (const edge of graph.incoming.get(member)!) {
      if (edge.source === vertex.id && edge.sourceOutput !== item) {
        throw invalid(vertex, `${describe(graph, member)} is in its body (downstream of ${item}) and also reads its ${edge.sourceOutput} output, which fires only after the last iteration`);
      }
      if (edge.source === vertex.id || body.has(edge.source)) again++;
      else if (descendants.has(edge.source)) {
        throw invalid(vertex, `${describe(graph, member)} is in its body and also reads ${describe(graph, edge.source)}, which runs only after the loop`);
      }
    }
    rewait.set(member, again);
  }
  return { id: vertex.id, item, done, feedback, body, rewait };
}

/** Vertices reachable from `from` along edges, never through `except`. */
function descendantsOf(graph: FlowGraph, from: readonly string[], except: string): Set<string> {
  const seen = new Set<string>();
  const stack = from.filter((id) => id !== except);
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const edge of graph.outgoing.get(id)!) if (edge.target !== except && !seen.has(edge.target)) stack.push(edge.target);
  }
  return seen;
}

function ancestorsOf(graph: FlowGraph, of: ReadonlySet<string>): Set<string> {
  const seen = new Set<string>(of);
  const stack = [...of];
  while (stack.length) {
    for (const edge of graph.incoming.get(stack.pop()!)!) {
      if (!seen.has(edge.source)) {
        seen.add(edge.source);
        stack.push(edge.source);
      }
    }
  }
  return seen;
}

const describe = (graph: FlowGraph, id: string) => `${graph.vertices.get(id)?.displayName ?? id} (${id})`;

const invalid = (vertex: GraphVertex, problem: string) => new FlowInvalidError(`Loop ${vertex.displayName} (${vertex.id}): ${problem}`, vertex.id);
