/**
 * Loads, in the background, the heavy modules (the AI SDK and its providers, arquero) that stored flows will need,
 * so a flow's first run does not wait for ~100-200 ms of imports, while a service whose flows never need them
 * never holds them (~24 MB resident). At start-up it walks every stored flow; afterwards each saved flow is checked.
 */
import type { LazyModule } from '../components/shared/lazy-module.js';
import { toGraph } from '../langflow/to-graph.js';
import type { Logger } from '../logger.js';
import type { FlowRepo } from '../store/port.js';

/** Flows read between two yields to the event loop, so a large store does not hold up requests at start-up. */
const FLOWS_PER_TURN = 20;

export class ModuleWarmUp {
  private readonly started = new Set<LazyModule<unknown>>();
  /**
   * The background work not yet ended: the walk, queued checks of saved flows, the loads they started (none
   * rejects). `whenIdle` waits for it, so a caller (a test) can tell what did and what did not get loaded without
   * guessing how long the work takes.
   */
  private readonly pending = new Set<Promise<void>>();
  private stopped = false;

  constructor(private readonly logger: Logger) {}

  /** Checks the flow on a later turn, off the save's path (the reply is not held up by building its graph). */
  flowSaved(flowData: unknown): void {
    if (this.stopped) return;
    this.track(
      new Promise<void>((resolve) =>
        setImmediate(() => {
          this.check(flowData);
          resolve();
        }),
      ),
    );
  }

  /** Walks every stored flow, a few per event-loop turn, until done or stopped; never rejects. */
  storedFlows(flows: FlowRepo): Promise<void> {
    return this.track(
      this.walk(flows).catch((error: unknown) => {
        this.logger.warn({ err: error }, 'reading the stored flows for the modules they need failed; they load on first use');
      }),
    );
  }

  /** Resolves once the walk, every queued check and every load they started have ended (loaded or failed). */
  async whenIdle(): Promise<void> {
    // Work ending can start more (a check starts loads), so wait until none is left.
    while (this.pending.size > 0) await Promise.all(this.pending);
  }

  private async walk(flows: FlowRepo): Promise<void> {
    const ids = await flows.ids();
    for (let i = 0; i < ids.length && !this.stopped; i++) {
      if (i > 0 && i % FLOWS_PER_TURN === 0) {
        await new Promise((resolve) => setImmediate(resolve));
        if (this.stopped) return;
      }
      const flow = await flows.get(ids[i]);
      if (flow) this.check(flow.data);
    }
  }

  /** Starts loading what the flow's nodes need (a flow that does not build is left for its run to report). */
  private check(flowData: unknown): void {
    if (this.stopped) return;
    let modules: LazyModule<unknown>[];
    try {
      modules = [...toGraph(flowData).vertices.values()].flatMap((vertex) => vertex.component.heavyModules?.(vertex.params) ?? []);
    } catch {
      return;
    }
    for (const module of modules) this.load(module);
  }

  /** The store is closing: the walk reads no more. */
  stop(): void {
    this.stopped = true;
  }

  private load(module: LazyModule<unknown>): void {
    if (this.started.has(module)) return;
    this.started.add(module);
    // A module that fails to load fails again, with its message, in the run that needs it.
    this.track(
      module.load().then(
        () => undefined,
        (error: unknown) => this.logger.warn({ err: error }, 'loading a module ahead of its first use failed'),
      ),
    );
  }

  private track(work: Promise<void>): Promise<void> {
    this.pending.add(work);
    void work.then(() => this.pending.delete(work));
    return work;
  }
}
