/**
 * Custom components of a service: compiles and describes their source (once per source, cached), and turns a flow
 * node's code into a ComponentDefinition whose runs go through the sandbox pool. Describing runs the module's top
 * level, so it happens in a sandbox too, with the same limits, in an engine kept for that purpose.
 */
import type { ComponentDefinition, FieldMap } from '../contract.js';
import { compileSource, sourceHash, type SourceProblem } from './component-source.js';
import { customComponent, type CompiledComponent } from './custom-component.js';
import { definitionProblems } from './custom-definition.js';
import { NO_CAPABILITIES, type Capabilities } from './host-capabilities.js';
import { newEngineInstance, type EngineInstance } from './quickjs-module.js';
import { Sandbox, SandboxCodeError } from './sandbox.js';
import { SandboxLimitError, type SandboxLimits } from './sandbox-limits.js';
import { SandboxPool, type PoolOptions } from './sandbox-pool.js';

/** What is wrong with a source, in the parts Langflow's code validation reports. */
export interface SourceReport {
  /** Imports the sandbox cannot give (it has no modules). */
  imports: string[];
  syntax?: SourceProblem;
  /** Errors evaluating the module, or a default export that is not a component definition. */
  definition: string[];
  compiled?: CompiledComponent;
}

/** Sources kept described, by their hash: a count and a size bound, since callers choose what they send. */
const CACHE_MAX_ENTRIES = 500;
const CACHE_MAX_BYTES = 32 * 1024 * 1024;

interface Described {
  report: SourceReport;
  component?: ComponentDefinition<FieldMap>;
  bytes: number;
}

export class CustomComponents {
  readonly pool: SandboxPool;
  /** Engines that describe sources: the first in use, the second standing by for when the first breaks. */
  private readonly describers: EngineInstance[] = [];
  private refilling?: Promise<void>;
  private readonly described = new Map<string, Described>();
  private describedBytes = 0;

  constructor(
    readonly limits: SandboxLimits,
    readonly capabilities: Capabilities = NO_CAPABILITIES,
    poolOptions?: PoolOptions,
  ) {
    this.pool = new SandboxPool(limits, capabilities, poolOptions);
  }

  /** Loads the engine; describing needs it at hand, since flows are turned into graphs synchronously. */
  async start(): Promise<void> {
    while (this.describers.length < 2) this.describers.push(await newEngineInstance(this.limits.memoryMb));
  }

  /** Checks a source without running it anywhere but in a sandbox. */
  inspect(code: string): SourceReport {
    return this.describedOf(code).report;
  }

  /** Syntax and imports only: nothing is evaluated, not even in a sandbox (where custom code is not allowed). */
  checkStatically(code: string): SourceReport {
    const source = compileSource(code);
    return source.ok ? { imports: [], definition: [] } : { imports: source.imports, syntax: source.syntax, definition: [] };
  }

  /** The runnable component of a source; throws an Error whose message says what is wrong with it. */
  componentOf(code: string): ComponentDefinition<FieldMap> {
    const described = this.describedOf(code);
    if (!described.report.compiled) throw new Error(summary(described.report));
    described.component ??= customComponent(described.report.compiled, this.pool, this.capabilities);
    return described.component;
  }

  private describedOf(code: string): Described {
    const hash = sourceHash(code);
    const cached = this.described.get(hash);
    if (cached) return cached;
    const entry: Described = { report: this.report(code, hash), bytes: code.length * 2 };
    // Not kept while the engine is (re)starting: the same source gets its real answer once it is up.
    if (this.describers.length === 0) return entry;
    this.described.set(hash, entry);
    this.describedBytes += entry.bytes;
    while (this.described.size > CACHE_MAX_ENTRIES || this.describedBytes > CACHE_MAX_BYTES) {
      const [oldest, dropped] = this.described.entries().next().value!;
      this.described.delete(oldest);
      this.describedBytes -= dropped.bytes;
    }
    return entry;
  }

  /** Resolves once the describers are back to full strength (after one was replaced). */
  async describersReady(): Promise<void> {
    await this.refilling;
  }

  close(): void {
    this.pool.close();
  }

  private report(code: string, hash: string): SourceReport {
    const source = compileSource(code, hash);
    if (!source.ok) return { imports: source.imports, syntax: source.syntax, definition: [] };
    const describer = this.describers[0];
    if (!describer) return { imports: [], definition: ['custom components are still starting; try again'] };
    let sandbox: Sandbox | undefined;
    let clean = true;
    try {
      sandbox = new Sandbox(describer, source.script, this.limits, this.capabilities);
      const { problems, definition } = definitionProblems(sandbox.describe());
      return definition ? { imports: [], definition: [], compiled: { definition, script: source.script, hash: source.hash } } : { imports: [], definition: problems };
    } catch (error) {
      // A source that broke a limit, or an engine that failed, leaves the engine unfreeable (its sandbox broken).
      if (error instanceof SandboxLimitError || (error instanceof SandboxCodeError && error.message.startsWith('the sandbox failed'))) clean = false;
      return { imports: [], definition: [error instanceof Error ? error.message : String(error)] };
    } finally {
      const freed = sandbox ? sandbox.dispose() !== undefined : clean;
      if (!freed) this.replaceDescriber(describer);
    }
  }

  /** A describer left broken is dropped for the one standing by; another is made to stand by in the background. */
  private replaceDescriber(broken: EngineInstance): void {
    const index = this.describers.indexOf(broken);
    if (index >= 0) this.describers.splice(index, 1);
    this.refilling ??= this.start().finally(() => (this.refilling = undefined));
  }
}

/** One line saying what is wrong with a source. */
export function summary(report: SourceReport): string {
  if (report.syntax) return `syntax error: ${report.syntax.message}${report.syntax.line ? ` (line ${report.syntax.line}, column ${report.syntax.column})` : ''}`;
  if (report.imports.length) return `imports are not available in custom components: ${report.imports.join(', ')}`;
  return report.definition.join('; ');
}
