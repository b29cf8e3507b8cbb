/**
 * What a component sees of its run (ComponentContext), one per vertex run. A class rather than an object literal:
 * what every vertex of a run shares sits in one RunScope read through prototype getters, so a vertex costs one
 * small object, and the run's AbortSignal is only made when a component reads `signal` (a getter in a literal
 * made each context a slow-path object: measured 2x the engine's CPU on a 50-vertex chain).
 */
import type { CallersFiles, CallersKnowledge, ComponentContext, ComponentEvent, FileAccess, KnowledgeAccess, ModelDefaults, NetworkPolicy, SessionMemory } from '../src/components/contract.js';
import type { FlowGraph } from '../src/engine/graph.js';
import type { LazyAbortController } from '../src/engine/lazy-abort.js';
import type { Logger } from '../src/logger.js';

/** What every vertex of a run shares, built once per run. */
export interface RunScope {
  abort: LazyAbortController;
  graph: FlowGraph;
  flow: { id: string; name: string; userId: string };
  sessionId: string;
  emit(event: ComponentEvent): void;
  logger: Logger;
  variable(name: string): Promise<string>;
  memory: SessionMemory;
  callersFiles?: CallersFiles;
  /** The caller's view of `callersFiles`, made when a component first asks (most runs read no file). */
  files: FileAccess | undefined;
  network: NetworkPolicy;
  models?: ModelDefaults;
  callersKnowledge?: CallersKnowledge;
  /** The caller's view of `callersKnowledge`, made when a component first asks. */
  knowledge: KnowledgeAccess | undefined;
}

export class VertexContext implements ComponentContext {
  readonly #scope: RunScope;
  readonly #vertexId: string;
  #run: ComponentContext['run'] | undefined;
  dynamic: Readonly<Record<string, unknown>> = {};

  constructor(
    scope: RunScope,
    vertexId: string,
    readonly requested: ReadonlySet<string>,
  ) {
    this.#scope = scope;
    this.#vertexId = vertexId;
  }

  get signal(): AbortSignal {
    return this.#scope.abort.signal;
  }

  get emit(): (event: ComponentEvent) => void {
    return this.#scope.emit;
  }

  get logger(): Logger {
    return this.#scope.logger;
  }

  get variable(): (name: string) => Promise<string> {
    return this.#scope.variable;
  }

  get memory(): SessionMemory {
    return this.#scope.memory;
  }

  get files(): FileAccess | undefined {
    const scope = this.#scope;
    const callers = scope.callersFiles;
    if (!callers) return undefined;
    const userId = scope.flow.userId;
    const save = callers.save?.bind(callers);
    return (scope.files ??= { open: (path) => callers.open(path, userId), ...(save ? { save: (name: string, content: string) => save(userId, name, content) } : {}) });
  }

  get knowledge(): KnowledgeAccess | undefined {
    const scope = this.#scope;
    return (scope.knowledge ??= scope.callersKnowledge?.forUser(scope.flow.userId));
  }

  get network(): NetworkPolicy {
    return this.#scope.network;
  }

  get models(): ModelDefaults | undefined {
    return this.#scope.models;
  }

  /** Made on first use and kept: components read it several times and may compare it. */
  get run(): ComponentContext['run'] {
    if (this.#run) return this.#run;
    const { flow, sessionId, graph } = this.#scope;
    const vertexId = this.#vertexId;
    this.#run = { flowId: flow.id, flowName: flow.name, sessionId, userId: flow.userId, vertexId, displayName: graph.vertices.get(vertexId)!.displayName };
    return this.#run;
  }

  sourceOf(field: string): ReturnType<ComponentContext['sourceOf']> {
    const { graph } = this.#scope;
    const edge = graph.incoming.get(this.#vertexId)!.find((e) => e.targetField === field);
    const source = edge && graph.vertices.get(edge.source);
    return source ? { id: source.id, displayName: source.displayName, source: null } : undefined;
  }
}
