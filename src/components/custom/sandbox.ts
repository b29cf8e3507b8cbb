/**
 * One QuickJS context holding one custom component's module: it describes the component and runs it, each turn of
 * JavaScript bounded by the run's CPU budget (an interrupt handler) and its heap by the engine's memory (see
 * quickjs-module.ts). The sandbox has what QuickJS itself has (JSON, Math, Promise, Date, ...) and nothing of the
 * host: no require, process, file system, network or timers. Values cross as JSON text only.
 */
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from 'quickjs-emscripten-core';
import { capabilitiesPrelude, NO_CAPABILITIES, type Capabilities, type HostCalls } from './host-capabilities.js';
import type { EngineInstance } from './quickjs-module.js';
import { HARNESS } from './sandbox-harness.js';
import { describeLimit, SandboxLimitError, type SandboxLimits } from './sandbox-limits.js';
import { parseCrossing } from './json-crossing.js';

/** Below the host's own stack: a deep recursion is a RangeError inside the sandbox, never one in the host. */
const MAX_STACK_BYTES = 256 * 1024;

/** Code the sandbox threw or refused: the component's own failure (not a limit). */
export class SandboxCodeError extends Error {
  override name = 'SandboxCodeError';
}

export class Sandbox {
  private readonly runtime: QuickJSRuntime;
  private readonly context: QuickJSContext;
  private readonly functions: QuickJSHandle[];
  private deadline = Infinity;
  /** The current run's host calls, and those under way (a run awaits them between its turns). */
  private calls: HostCalls = {};
  private readonly pending = new Set<Promise<void>>();
  /** Set once the sandbox broke a limit or failed inside the engine: it is thrown away, never reused. */
  broken = false;

  /** Evaluates the component's script in a new context of `engine`; throws SandboxCodeError when it fails. */
  constructor(
    private readonly engine: EngineInstance,
    script: string,
    private readonly limits: SandboxLimits,
    capabilities: Capabilities = NO_CAPABILITIES,
  ) {
    this.runtime = engine.module.newRuntime();
    this.runtime.setMaxStackSize(MAX_STACK_BYTES);
    this.runtime.setMemoryLimit(limits.memoryMb * 1024 * 1024);
    this.runtime.setInterruptHandler(() => performance.now() > this.deadline);
    this.context = this.runtime.newContext();
    this.functions = [];
    try {
      const hostCall = this.context.newFunction('__hostCall', (name, argument) => this.hostCall(this.context.getString(name), this.context.getString(argument)));
      this.context.setProp(this.context.global, '__hostCall', hostCall);
      hostCall.dispose();
      this.turn(limits.cpuMs, () => this.consume(this.context.evalCode(capabilitiesPrelude(capabilities), 'prelude.js')));
      this.turn(limits.cpuMs, () => this.consume(this.context.evalCode(script, 'component.ts')));
      const list = this.turn(limits.cpuMs, () => this.context.unwrapResult(this.context.evalCode(HARNESS, 'harness.js')));
      for (let i = 0; i < 3; i++) this.functions.push(this.context.getProp(list, i));
      list.dispose();
    } catch (error) {
      this.dispose();
      throw error;
    }
  }

  /** The module's default export as JSON (its `run` left out), and what `run` is. */
  describe(): { definition?: unknown; runType?: string; notAnObject?: string } {
    const json = this.turn(this.limits.cpuMs, () => this.callForString(this.functions[0]!));
    return parseCrossing(json) as never;
  }

  /** Runs the component with JSON inputs; resolves to its JSON result. */
  async run(inputs: string, context: string, signal?: AbortSignal, calls: HostCalls = {}): Promise<unknown> {
    this.calls = calls;
    try {
      return await this.runTurns(inputs, context, signal);
    } finally {
      this.calls = {};
    }
  }

  private async runTurns(inputs: string, context: string, signal?: AbortSignal): Promise<unknown> {
    let budget = this.limits.cpuMs;
    const spend = <T>(work: () => T): T => {
      const started = performance.now();
      try {
        return this.turn(budget, work);
      } finally {
        budget -= performance.now() - started;
      }
    };
    const answered = spend(() => this.callForString(this.functions[1]!, inputs, context));
    if (answered) return this.settle(parseCrossing(answered) as { value?: unknown; error?: string });
    // Pure JavaScript settles within the pending jobs; a host call (fetch, readFile) is awaited between turns.
    for (;;) {
      signal?.throwIfAborted();
      spend(() => this.consume(this.runtime.executePendingJobs(-1) as never));
      const outcome = spend(() => this.callForString(this.functions[2]!));
      if (outcome) return this.settle(parseCrossing(outcome) as { value?: unknown; error?: string });
      if (this.pending.size > 0) await Promise.race(this.pending);
      else if (!this.runtime.hasPendingJob()) throw new SandboxCodeError('run() returned a promise that never settles');
    }
  }

  /**
   * Frees the context; answers the engine when it is clean enough to hold another sandbox. A broken engine is
   * dropped whole, not freed: freeing one stopped mid-run aborts it (it is this sandbox's alone).
   */
  dispose(): EngineInstance | undefined {
    if (this.broken || this.pending.size > 0) return undefined;
    try {
      for (const handle of this.functions) handle.dispose();
      this.context.dispose();
      this.runtime.dispose();
      return this.engine;
    } catch {
      this.broken = true;
      return undefined;
    }
  }

  /** A host call from inside: a promise there, settled from here when the host's work ends. */
  private hostCall(name: string, argument: string) {
    const deferred = this.context.newPromise();
    const work = this.calls[name as keyof HostCalls];
    const done = (work ? work(argument) : Promise.reject(new Error(`${name} is not available`))).then(
      (text) => {
        if (!this.context.alive || !deferred.alive) return;
        const value = this.context.newString(text);
        deferred.resolve(value);
        value.dispose();
      },
      (error: unknown) => {
        if (!this.context.alive || !deferred.alive) return;
        const reason = this.context.newError(error instanceof Error ? error.message : String(error));
        deferred.reject(reason);
        reason.dispose();
      },
    );
    const settled = done.finally(() => {
      this.pending.delete(settled);
      if (this.context.alive && deferred.alive) deferred.dispose();
    });
    this.pending.add(settled);
    return deferred.handle;
  }

  private settle(outcome: { value?: unknown; error?: string }): unknown {
    if (outcome.error !== undefined) {
      if (/out of memory/i.test(outcome.error)) throw this.limitBroken('memory');
      throw new SandboxCodeError(outcome.error);
    }
    return outcome.value ?? null;
  }

  /** Runs host-side work that enters the sandbox, with `budget` ms of CPU; limit breaks become SandboxLimitError. */
  private turn<T>(budget: number, work: () => T): T {
    if (budget <= 0) throw this.limitBroken('cpu');
    this.deadline = performance.now() + budget;
    try {
      return work();
    } catch (error) {
      if (error instanceof SandboxLimitError) throw error;
      if (performance.now() > this.deadline) throw this.limitBroken('cpu');
      if (error instanceof SandboxCodeError) {
        if (/out of memory/i.test(error.message)) throw this.limitBroken('memory');
        throw error;
      }
      // Anything else came from the engine itself (an abort): this sandbox is done for.
      this.broken = true;
      throw new SandboxCodeError(`the sandbox failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.deadline = Infinity;
    }
  }

  private limitBroken(limit: 'cpu' | 'memory'): SandboxLimitError {
    this.broken = true;
    // A heap at its ceiling makes every allocation fail and collect again, which can use up the CPU budget before
    // the "out of memory" reaches the top: the memory is then what was broken.
    if (this.nearMemoryCeiling()) limit = 'memory';
    return new SandboxLimitError(limit, describeLimit(this.limits, limit));
  }

  /** The heap grows in steps, so the failing step leaves it short of the ceiling by up to a step. */
  private nearMemoryCeiling(): boolean {
    const limitBytes = this.limits.memoryMb * 1024 * 1024;
    return this.engine.memory.buffer.byteLength > this.engine.maxBytes - Math.max(4 * 1024 * 1024, limitBytes / 8);
  }

  /** Calls a harness function with string arguments; its answer if it is a string, else ''. */
  private callForString(fn: QuickJSHandle, ...args: string[]): string {
    const handles = args.map((arg) => this.context.newString(arg));
    try {
      const result = this.context.callFunction(fn, this.context.undefined, ...handles);
      if (result.error) return this.consume(result) as never;
      const text = this.context.typeof(result.value) === 'string' ? this.context.getString(result.value) : '';
      result.value.dispose();
      return text;
    } finally {
      for (const handle of handles) handle.dispose();
    }
  }

  /** Disposes a call's result; an error inside the sandbox becomes a SandboxCodeError with its message. */
  private consume(result: { error?: QuickJSHandle; value?: QuickJSHandle; dispose?: () => void }): void {
    if (result.error) {
      const dumped = this.context.dump(result.error) as { name?: string; message?: string; stack?: string } | string;
      result.error.dispose();
      const message = typeof dumped === 'object' && dumped ? `${dumped.name ?? 'Error'}: ${dumped.message ?? ''}${position(dumped.stack)}` : String(dumped);
      throw new SandboxCodeError(message);
    }
    if (result.value && typeof (result.value as QuickJSHandle).dispose === 'function' && (result.value as QuickJSHandle).alive) (result.value as QuickJSHandle).dispose();
  }

  /** Bytes of memory the engine holds now (it never shrinks: a sandbox that grew big is not kept idle). */
  get memoryBytes(): number {
    return this.engine.memory.buffer.byteLength;
  }
}

/** " (line 3, column 7)" from a QuickJS stack's first frame in the component's file. */
function position(stack: string | undefined): string {
  const match = stack && /component\.ts:(\d+):(\d+)/.exec(stack);
  return match ? ` (line ${Number(match[1]) - 1}, column ${match[2]})` : '';
}
