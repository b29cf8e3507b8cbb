/**
 * Idle sandboxes kept by key (one caller's one component source), so that a custom node's run costs one call into
 * a ready context instead of a new engine (a few milliseconds). A sandbox that broke a limit, failed, or grew its
 * memory is never put back. Keys are per caller: module-level state a component keeps between runs is never seen
 * by another user's runs.
 */
import type { Capabilities, HostCalls } from './host-capabilities.js';
import { ENGINE_BASELINE_BYTES, newEngineInstance, type EngineInstance } from './quickjs-module.js';
import { Sandbox } from './sandbox.js';
import type { SandboxLimits } from './sandbox-limits.js';

export interface PoolOptions {
  /** Idle sandboxes kept for one key (concurrent runs of the same node each need one). */
  perKey: number;
  /** Idle sandboxes kept in all; the least recently used key's go first. */
  total: number;
}

/** A sandbox whose memory grew past its first size by more than this is dropped rather than kept idle. */
const KEPT_GROWTH_BYTES = 8 * 1024 * 1024;
/** Engines of freed sandboxes kept for new ones: a new context costs a tenth of a new engine. */
const SPARE_ENGINES = 16;

export class SandboxPool {
  private readonly idle = new Map<string, Sandbox[]>();
  private readonly spares: EngineInstance[] = [];
  private idleCount = 0;
  /** Sandboxes made and runs served by a kept one, for the bench and tests. */
  readonly stats = { created: 0, reused: 0, engines: 0 };

  constructor(
    private readonly limits: SandboxLimits,
    private readonly capabilities: Capabilities,
    private readonly options: PoolOptions = { perKey: 4, total: 64 },
  ) {}

  /** Runs `script`'s component in a kept sandbox of `key`, or a new one. */
  async run(key: string, script: string, inputs: string, context: string, signal?: AbortSignal, calls?: HostCalls): Promise<unknown> {
    const sandbox = this.take(key) ?? (await this.create(script));
    const baseline = sandbox.memoryBytes;
    try {
      return await sandbox.run(inputs, context, signal, calls);
    } finally {
      if (sandbox.broken || sandbox.memoryBytes - baseline > KEPT_GROWTH_BYTES) this.free(sandbox);
      else this.give(key, sandbox);
    }
  }

  /** Frees every idle sandbox (service shutdown). */
  close(): void {
    for (const list of this.idle.values()) for (const sandbox of list) sandbox.dispose();
    this.idle.clear();
    this.idleCount = 0;
    this.spares.length = 0;
  }

  private async create(script: string): Promise<Sandbox> {
    let engine = this.spares.pop();
    if (!engine) {
      engine = await newEngineInstance(this.limits.memoryMb);
      this.stats.engines++;
    }
    this.stats.created++;
    return new Sandbox(engine, script, this.limits, this.capabilities);
  }

  /** Frees a sandbox, keeping its engine for the next new sandbox when it is clean and small. */
  private free(sandbox: Sandbox): void {
    const engine = sandbox.dispose();
    if (engine) this.keepSpare(engine);
  }

  /** A spare that grew past its initial memory by more than a kept sandbox may is not kept. */
  private keepSpare(engine: EngineInstance): void {
    if (this.spares.length < SPARE_ENGINES && engine.memory.buffer.byteLength - ENGINE_BASELINE_BYTES <= KEPT_GROWTH_BYTES) this.spares.push(engine);
  }

  private take(key: string): Sandbox | undefined {
    const list = this.idle.get(key);
    const sandbox = list?.pop();
    if (!sandbox) return undefined;
    this.idleCount--;
    if (list!.length === 0) this.idle.delete(key);
    this.stats.reused++;
    return sandbox;
  }

  private give(key: string, sandbox: Sandbox): void {
    const list = this.idle.get(key) ?? [];
    if (list.length >= this.options.perKey) {
      this.free(sandbox);
      return;
    }
    list.push(sandbox);
    // Re-inserted last: the map's order is least recently used first.
    this.idle.delete(key);
    this.idle.set(key, list);
    this.idleCount++;
    while (this.idleCount > this.options.total) this.evictOldest();
  }

  private evictOldest(): void {
    const [key, list] = this.idle.entries().next().value as [string, Sandbox[]];
    this.free(list.shift()!);
    this.idleCount--;
    if (list.length === 0) this.idle.delete(key);
  }
}
