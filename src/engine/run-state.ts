/**
 * The scheduling state of one run, as pure decisions (the job actor performs the effects): which vertices are
 * ready, what each receives on its edges, and which are skipped because a router did not choose their branch.
 * A vertex that leaves a requested output undefined deactivates that output's edges; a vertex with an inactive
 * incoming edge is skipped, and so are its descendants.
 *
 * Loops (loops.ts): a loop vertex's first completion gives the list to iterate. Each iteration puts one element on
 * its `item` output and makes the body wait again for the loop and for each other; when every body vertex has run
 * (or been skipped), what the loop edge brings back is kept and the next iteration starts. After the last, the
 * loop vertex completes for good with its final outputs, and what hangs off `done` becomes ready.
 */
import { ComponentError } from '../components/component.error.js';
import type { FlowGraph, GraphEdge } from './graph.js';
import type { LoopPlan } from './loops.js';
import type { RunPlan } from './plan.js';

const NONE_SKIPPED: ReadonlySet<string> = new Set();

/** The most elements one loop may iterate over in a run unless the service says otherwise. */
export const DEFAULT_MAX_LOOP_ITERATIONS = 1000;

interface LoopProgress {
  plan: LoopPlan;
  items: readonly unknown[];
  index: number;
  gathered: unknown[];
  /** Body vertices still to run (or be skipped) in this iteration. */
  remaining: number;
}

export class RunState {
  private readonly waiting = new Map<string, number>();
  // Made only when a router leaves a branch unchosen (most runs never do): a run waiting on a slow model keeps
  // its state for as long as the model takes, and an empty Set is ~180 bytes.
  private inactiveEdges: Set<GraphEdge> | undefined;
  #skipped: Set<string> | undefined;
  readonly results = new Map<string, Record<string, unknown>>();
  private open: number;
  private iterating: Map<string, LoopProgress> | undefined;
  /** Loop vertices that completed for good since the job last asked (it reports them as it reports a vertex). */
  private loopsEnded: string[] | undefined;

  constructor(
    private readonly graph: FlowGraph,
    private readonly plan: RunPlan,
    private readonly maxLoopIterations = DEFAULT_MAX_LOOP_ITERATIONS,
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

  /** True for a loop vertex that has not yet given its list: its next completion starts the loop. */
  startsLoop(id: string): boolean {
    return this.plan.loops?.has(id) === true && !this.iterating?.has(id);
  }

  /** Records a vertex's outputs; returns the vertices that became ready. A loop over too many elements throws. */
  complete(id: string, outputs: Record<string, unknown>): string[] {
    if (this.startsLoop(id)) return this.startLoop(this.plan.loops!.get(id)!, outputs);
    this.results.set(id, outputs);
    this.countDown(id);
    const ready = this.release(id, (edge) => outputs[edge.sourceOutput] === undefined);
    if (this.iterating) this.advanceLoops(ready);
    return ready;
  }

  /** The loop vertices that completed for good since the last call. */
  takeEndedLoops(): readonly string[] {
    const ended = this.loopsEnded ?? [];
    this.loopsEnded = undefined;
    return ended;
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

  /** A body vertex counts toward its iteration; any other toward the run. */
  private countDown(id: string): void {
    const loop = this.plan.bodyOf?.get(id);
    if (loop) this.iterating!.get(loop.id)!.remaining--;
    else this.open--;
  }

  private release(id: string, inactive: (edge: GraphEdge) => boolean, only?: (edge: GraphEdge) => boolean): string[] {
    const ready: string[] = [];
    for (const edge of this.graph.outgoing.get(id)!) {
      if (!this.plan.region.has(edge.target) || (only && !only(edge))) continue;
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
    this.countDown(id);
    return this.release(id, () => true);
  }

  private startLoop(plan: LoopPlan, outputs: Record<string, unknown>): string[] {
    const items = outputs[plan.item];
    const list = Array.isArray(items) ? items : [];
    const vertex = this.graph.vertices.get(plan.id)!;
    if (list.length > this.maxLoopIterations) {
      throw new ComponentError(`${vertex.displayName} (${plan.id}) has ${list.length} items to iterate over, more than the ${this.maxLoopIterations} iterations a loop may run here`);
    }
    const loop: LoopProgress = { plan, items: list, index: 0, gathered: [], remaining: 0 };
    (this.iterating ??= new Map()).set(plan.id, loop);
    const ready: string[] = [];
    this.iterate(loop, ready);
    return ready;
  }

  /** Starts the loop's next iteration, or ends the loop after its last (adding what became ready to `ready`). */
  private iterate(loop: LoopProgress, ready: string[]): void {
    const { plan } = loop;
    while (loop.index < loop.items.length) {
      if (loop.index > 0) this.rearm(plan);
      this.results.set(plan.id, { [plan.item]: loop.items[loop.index] });
      loop.remaining = plan.body.size;
      ready.push(...this.release(plan.id, () => false, (edge) => edge.sourceOutput === plan.item));
      if (loop.remaining > 0) return;
      this.gather(loop);
    }
    const vertex = this.graph.vertices.get(plan.id)!;
    const outputs = vertex.component.loop!.finish(loop.items, loop.gathered);
    this.results.set(plan.id, outputs);
    this.iterating!.delete(plan.id);
    this.open -= plan.body.size + 1;
    (this.loopsEnded ??= []).push(plan.id);
    ready.push(...this.release(plan.id, (edge) => outputs[edge.sourceOutput] === undefined, (edge) => edge.sourceOutput !== plan.item));
  }

  /** Ends iterations whose body has all run (a completion may end one, and a skip in a release another). */
  private advanceLoops(ready: string[]): void {
    for (const loop of this.iterating!.values()) {
      if (loop.remaining > 0) continue;
      this.gather(loop);
      this.iterate(loop, ready);
    }
  }

  /** Keeps what the loop edge brought back in this iteration (nothing when its source was skipped). */
  private gather(loop: LoopProgress): void {
    const feedback = loop.plan.feedback;
    loop.index++;
    if (!feedback || this.#skipped?.has(feedback.source)) return;
    const value = this.results.get(feedback.source)?.[feedback.sourceOutput];
    if (value !== undefined) loop.gathered.push(value);
  }

  /** The body waits again for the loop and for each other; what was skipped in the last iteration may run now. */
  private rearm(plan: LoopPlan): void {
    for (const [id, count] of plan.rewait) {
      this.waiting.set(id, count);
      this.#skipped?.delete(id);
    }
    if (!this.inactiveEdges) return;
    for (const edge of this.inactiveEdges) if (edge.source === plan.id || plan.body.has(edge.source)) this.inactiveEdges.delete(edge);
  }
}
