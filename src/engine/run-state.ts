/**
 * The scheduling state of one run, as pure decisions (the job actor performs the effects): which vertices are
 * ready, what each receives on its edges, and which are skipped because a router did not choose their branch.
 * A vertex that leaves a requested output undefined deactivates that output's edges; a vertex with an inactive
 * incoming edge is skipped, and so are its descendants.
 */
import type { FlowGraph, GraphEdge } from './graph.js';
import type { RunPlan } from './plan.js';

const NONE_SKIPPED: ReadonlySet<string> = new Set();

export class RunState {
  private readonly waiting = new Map<string, number>();
  // Made only when a router leaves a branch unchosen (most runs never do): a run waiting on a slow model keeps
  // its state for as long as the model takes, and an empty Set is ~180 bytes.
  private inactiveEdges: Set<GraphEdge> | undefined;
  #skipped: Set<string> | undefined;
  readonly results = new Map<string, Record<string, unknown>>();
  private open: number;

  constructor(
    private readonly graph: FlowGraph,
    private readonly plan: RunPlan,
  ) {
    for (const [id, edges] of plan.incoming) this.waiting.set(id, edges.length);
    this.open = plan.region.size;
  }

  /** Vertices with no predecessors in the region, in flow order. */
  initial(): readonly string[] {
    return this.plan.initial;
  }

  /** Vertices skipped because their branch was not chosen. */
  get skipped(): ReadonlySet<string> {
    return this.#skipped ?? NONE_SKIPPED;
  }

  get finished(): boolean {
    return this.open === 0;
  }

  /** Records a vertex's outputs; returns the vertices that became ready. */
  complete(id: string, outputs: Record<string, unknown>): string[] {
    this.results.set(id, outputs);
    this.open--;
    return this.release(id, (edge) => outputs[edge.sourceOutput] === undefined);
  }

  /** The values a vertex receives, by field: lists for fields fed by several edges. */
  inputsFor(id: string, listFields: (field: string) => boolean): Record<string, unknown> {
    const values: Record<string, unknown> = {};
    for (const edge of this.edgesInto(id)) {
      const value = this.results.get(edge.source)?.[edge.sourceOutput];
      if (listFields(edge.targetField)) {
        const list = (values[edge.targetField] as unknown[] | undefined) ?? [];
        for (const item of Array.isArray(value) ? value : [value]) if (!list.includes(item)) list.push(item);
        values[edge.targetField] = list;
      } else {
        values[edge.targetField] = value;
      }
    }
    return values;
  }

  private edgesInto(id: string): readonly GraphEdge[] {
    return this.plan.incoming.get(id)!;
  }

  private release(id: string, inactive: (edge: GraphEdge) => boolean): string[] {
    const ready: string[] = [];
    for (const edge of this.graph.outgoing.get(id)!) {
      if (!this.plan.region.has(edge.target)) continue;
      if (inactive(edge)) (this.inactiveEdges ??= new Set()).add(edge);
      const remaining = this.waiting.get(edge.target)! - 1;
      this.waiting.set(edge.target, remaining);
      if (remaining > 0) continue;
      if (this.inactiveEdges && this.edgesInto(edge.target).some((e) => this.inactiveEdges!.has(e))) ready.push(...this.skip(edge.target));
      else ready.push(edge.target);
    }
    return ready;
  }

  /** Skips a vertex whose branch was not chosen; its dependents may become ready (or skipped) in turn. */
  private skip(id: string): string[] {
    (this.#skipped ??= new Set()).add(id);
    this.open--;
    return this.release(id, () => true);
  }
}
