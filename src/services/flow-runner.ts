/**
 * Prepares runs of stored flows: flow JSON (with tweaks) -> graph -> plan -> the job the actors execute. Everything
 * that can be refused (invalid flow, unknown component in start/stop) is refused in `prepare`, before any streaming
 * starts; the run itself is the run lifecycle's (src/runs/).
 */
import { randomUUID } from 'node:crypto';
import type { JobInput } from '../../actors/job.actor.js';
import type { CallersFiles, CallersKnowledge, ModelDefaults } from '../components/contract.js';
import { MODEL_CATALOG } from '../components/models/model-catalog.js';
import type { FlowRecord } from '../../protocol/flow.schema.js';
import type { Config } from '../config.js';
import type { FlowGraph } from '../engine/graph.js';
import { planRun, type RunPlan } from '../engine/plan.js';
import { inputVertices, outputVertices } from '../engine/select.js';
import { variableResolver, type VariableResolver } from '../engine/variables.js';
import type { CustomComponentSource } from '../langflow/custom-node.js';
import { toGraph, unrunnableNodes } from '../langflow/to-graph.js';
import type { UnrunnableNode } from '../errors/index.js';
import { applyTweaks, type Tweaks } from '../langflow/tweaks.js';
import { flowEnvironment } from './flow-environment.js';
import type { VariablesService } from './variables.service.js';

export interface RunOptions {
  flow: FlowRecord;
  userId: string;
  inputValue?: string | null;
  inputType?: string;
  outputType?: string;
  outputComponent?: string;
  tweaks?: Tweaks | null;
  sessionId?: string | null;
  /** Values for `load_from_db` fields, for this request only (headers, v2 globals). */
  requestVariables?: Record<string, string>;
  startComponentId?: string;
  stopComponentId?: string;
  /** The request's stream flag: like Langflow, it becomes every node's `stream` field (unset: the node's own). */
  stream?: boolean;
  /** Field values by vertex id (v2 flat inputs), applied after the request's own overrides. */
  overrides?: ReadonlyMap<string, Record<string, unknown>>;
  /** Run this stored version of the flow's data instead of the current one. */
  version?: { hash: string; data: unknown };
  /** Run this flow data instead of the stored one (a build's `data`), compiled for this run only. */
  data?: unknown;
  /** Files the Chat Inputs send with their message (a build's `files`). */
  inputFiles?: string[];
  /** The caller's job id (v2 jobs are created before the run); generated otherwise. */
  jobId?: string;
}

export interface PreparedRun {
  jobId: string;
  sessionId: string;
  graph: FlowGraph;
  plan: RunPlan;
  /** Vertices whose results the reply reports. */
  selected: string[];
  /** The `inputs` echoed in Langflow's reply. */
  inputs: Record<string, unknown>;
  /** What the actors execute. */
  job: JobInput;
}

const GRAPH_CACHE_MAX = 1000;

/** A flow's graph, and its plain plan once a run needed it. */
interface Compiled {
  updatedAt: string;
  graph: FlowGraph;
  plan?: RunPlan;
}

/** Langflow streams a model's reply only into a Chat Output it feeds directly. */
const feedsChatOutput = (graph: FlowGraph, id: string) => (graph.outgoing.get(id) ?? []).some((edge) => graph.vertices.get(edge.target)?.component.type === 'ChatOutput');

/**
 * The provider variables (OPENAI_API_KEY, ..., OLLAMA_BASE_URL) the superuser's runs read from the environment even
 * without FLOWSVC_FALLBACK_TO_ENV_VAR: Langflow stores them as the superuser's variables at start-up.
 */
const PROVIDER_VARIABLES = MODEL_CATALOG.map((entry) => entry.variable);

export class FlowRunner {
  /** Graphs of untweaked flows, by flow id; dropped when the flow changes (and checked against updated_at). */
  private readonly graphs = new Map<string, Compiled>();
  /** Set once the superuser exists (start-up): whose runs read the provider variables from the environment. */
  superuserId: string | undefined;
  private readonly models: ModelDefaults;

  constructor(
    private readonly config: Pick<Config, 'FALLBACK_TO_ENV_VAR' | 'ALLOW_PRIVATE_NETWORK'> & Partial<Pick<Config, 'DEFAULT_MODEL' | 'DEFAULT_EMBEDDING_MODEL' | 'LOOP_MAX_ITERATIONS' | 'MCP_STDIO_COMMANDS'>>,
    private readonly variables: Pick<VariablesService, 'resolve'>,
    /** The files runs may read for their callers (one object for every run). */
    private readonly files?: CallersFiles,
    /** Custom component code in flows; absent, custom code is not allowed and such a flow is refused. */
    readonly customs?: CustomComponentSource,
  ) {
    this.models = Object.freeze({ language: config.DEFAULT_MODEL, embedding: config.DEFAULT_EMBEDDING_MODEL });
  }

  /**
   * How a run of this user resolves variables: the request's, then the user's stored ones, then the environment
   * (all of it with FLOWSVC_FALLBACK_TO_ENV_VAR; only the provider variables for the superuser otherwise).
   */
  variablesFor(userId: string, requestVariables?: Record<string, string>): VariableResolver {
    return variableResolver({ request: requestVariables, stored: (name) => this.variables.resolve(userId, name), env: this.envFor(userId) });
  }

  private envFor(userId: string): NodeJS.ProcessEnv | undefined {
    if (this.config.FALLBACK_TO_ENV_VAR) return flowEnvironment;
    if (userId !== this.superuserId) return undefined;
    const env: NodeJS.ProcessEnv = {};
    for (const name of PROVIDER_VARIABLES) if (process.env[name] !== undefined) env[name] = process.env[name];
    return env;
  }

  /** Knowledge bases and vector stores runs reach for their callers (set once at assembly; absent: none). */
  knowledge?: CallersKnowledge;

  prepare(options: RunOptions): PreparedRun {
    // The closures below (kept for the whole run) read these, not `options`: a run does not keep its request.
    const { flow, userId } = options;
    // A build's own data is compiled under the same custom-component policy as stored flows.
    const compiled = options.data === undefined ? this.compiledOf(flow, options.tweaks, options.version) : { updatedAt: flow.updated_at, graph: toGraph(options.data, this.customs) };
    const { graph } = compiled;
    // The plain plan depends on the graph alone, so it is kept with the cached graph; start/stop plans are per run.
    const plan =
      options.startComponentId || options.stopComponentId
        ? planRun(graph, { startComponentId: options.startComponentId, stopComponentId: options.stopComponentId })
        : (compiled.plan ??= planRun(graph));
    const sessionId = options.sessionId || flow.id;
    const overrides = new Map<string, Record<string, unknown>>();
    // Each entry is this run's own object, filled in place: a spread copy per field gave every entry a hidden
    // class of its own, kept for the whole run.
    const set = (id: string, field: string, value: unknown) => {
      let fields = overrides.get(id);
      if (!fields) overrides.set(id, (fields = {}));
      if (field === '__proto__') Object.defineProperty(fields, field, { value, enumerable: true, writable: true, configurable: true });
      else fields[field] = value;
    };
    for (const vertex of graph.vertices.values()) if (vertex.component.fields.session_id) set(vertex.id, 'session_id', sessionId);
    if (options.inputValue !== undefined && options.inputValue !== null) {
      for (const vertex of inputVertices(graph, options.inputType ?? 'chat')) set(vertex.id, 'input_value', options.inputValue);
    }
    if (options.inputFiles?.length) for (const vertex of inputVertices(graph, 'chat')) set(vertex.id, 'files', options.inputFiles);
    // As in Langflow, a top-level `stream` tweak is the caller's explicit choice and wins over the flag.
    if (options.stream !== undefined && !(options.tweaks && 'stream' in options.tweaks)) {
      for (const vertex of graph.vertices.values()) if (vertex.component.fields.stream) set(vertex.id, 'stream', options.stream && feedsChatOutput(graph, vertex.id));
    }
    for (const [id, fields] of options.overrides ?? []) for (const [field, value] of Object.entries(fields)) set(id, field, value);
    const selected = outputVertices(graph, options.outputType ?? 'chat', options.outputComponent || undefined);
    const variables = this.variablesFor(userId, options.requestVariables);
    const jobId = options.jobId ?? randomUUID();
    return {
      jobId,
      sessionId,
      graph,
      plan,
      selected,
      inputs: { input_value: options.inputValue ?? null },
      job: { jobId, flow: { id: flow.id, name: flow.name, userId }, sessionId, graph, plan, overrides, variables, files: this.files, knowledge: this.knowledge, allowPrivateNetwork: this.config.ALLOW_PRIVATE_NETWORK, models: this.models, maxLoopIterations: this.config.LOOP_MAX_ITERATIONS, mcpStdioCommands: this.config.MCP_STDIO_COMMANDS },
    };
  }

  /** What of this flow data will not run here, as a run would refuse it (custom code as this service allows it). */
  unrunnable(flowData: unknown): UnrunnableNode[] {
    return unrunnableNodes(flowData, this.customs);
  }

  /** Drops the cached graph of a changed or deleted flow. */
  forget(flowId: string, versionsToo = false): void {
    this.graphs.delete(flowId);
    if (versionsToo) for (const key of this.graphs.keys()) if (key.startsWith(`${flowId}@`)) this.graphs.delete(key);
  }

  /** The graph of the flow's current data, or of a pinned version (cached apart: a version never changes). */
  graphOf(flow: FlowRecord, version?: { hash: string; data: unknown }): FlowGraph {
    return this.compiledOf(flow, undefined, version).graph;
  }

  private compiledOf(flow: FlowRecord, tweaks: Tweaks | null | undefined, version?: { hash: string; data: unknown }): Compiled {
    const data = ((version ? version.data : flow.data) ?? {}) as Record<string, unknown>;
    if (tweaks && Object.keys(tweaks).length > 0) return { updatedAt: flow.updated_at, graph: toGraph(applyTweaks(data, tweaks), this.customs) };
    const key = version ? `${flow.id}@${version.hash}` : flow.id;
    const stamp = version ? version.hash : flow.updated_at;
    const cached = this.graphs.get(key);
    if (cached && cached.updatedAt === stamp) return cached;
    const compiled: Compiled = { updatedAt: stamp, graph: toGraph(data, this.customs) };
    if (this.graphs.size >= GRAPH_CACHE_MAX) this.graphs.delete(this.graphs.keys().next().value!);
    this.graphs.set(key, compiled);
    return compiled;
  }
}
