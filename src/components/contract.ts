/**
 * The component contract. A component is a declarative definition (type, fields, outputs) plus a `run`
 * function; the registry (src/components/registry.ts) lists them all. The same definition drives execution,
 * the Langflow-style templates of /api/v1/all, and the contract test every component passes.
 */
import type { z } from 'zod';
import type { Logger } from '../logger.js';
import type { MessageValue } from '../values/message.js';
import type { LazyModule } from './shared/lazy-module.js';
import type { CallersKnowledge, KnowledgeAccess } from '../knowledge/knowledge-access.js';

export type { CallersKnowledge, KnowledgeAccess };

/** Langflow's template field types (`type` in a node's template). */
export type FieldType =
  | 'str' | 'int' | 'float' | 'bool' | 'dict' | 'NestedDict' | 'prompt' | 'file' | 'other' | 'table'
  | 'slider' | 'code' | 'tools' | 'query' | 'tab' | 'model' | 'sortableList' | 'mcp';

/** How a value arriving on an edge is shaped before the field's schema sees it. */
export type Accepts = 'text' | 'message' | 'data' | 'table' | 'any';

export interface FieldSpec<T = unknown> {
  /** Validates the final value (after edge coercion); `.default()` gives the field's default. */
  schema: z.ZodType<T>;
  type: FieldType;
  /** Langflow's `_input_type` (MessageTextInput, DropdownInput, ...), for the editor. */
  inputClass: string;
  displayName: string;
  info?: string;
  /** Value types an edge may deliver (Message, Data, DataFrame, ...). Empty: no handle. */
  inputTypes?: string[];
  accepts: Accepts;
  advanced?: boolean;
  show?: boolean;
  required?: boolean;
  /** Several edges collect into a list. */
  list?: boolean;
  multiline?: boolean;
  password?: boolean;
  /** The value names a global variable by default (API keys). */
  loadFromDb?: boolean;
  options?: string[];
  placeholder?: string;
  fileTypes?: string[];
  toolMode?: boolean;
  /** Default shown in the template (the schema's default applies at run time). */
  value?: unknown;
}

export interface OutputSpec {
  name: string;
  displayName: string;
  /** Value types this output produces. */
  types: string[];
  /** Langflow's method name, kept for the editor's template. */
  method: string;
  /** A loop edge may feed back into this output (Langflow's `allows_loop`: Loop's `item`). */
  allowsLoop?: boolean;
}

/**
 * A component the engine iterates (Langflow's Loop). Its `run` returns the list to iterate under `item`; the
 * engine then runs the vertices downstream of `item` once per element, each time with that element on `item`,
 * and keeps what the loop edge brings back. `finish` makes the vertex's final outputs from the list and what came
 * back (`done` among them), once, after the last element.
 */
export interface LoopBehaviour {
  item: string;
  done: string;
  finish(items: readonly unknown[], gathered: readonly unknown[]): Record<string, unknown>;
}

/** Events a component can emit while it runs; the job turns them into wire events. */
export type ComponentEvent =
  | { type: 'token'; messageId: string; chunk: string }
  | { type: 'message'; message: MessageValue };

/** Message history of the run's session (served by the session actor). */
export interface SessionMemory {
  store(message: MessageValue): Promise<MessageValue>;
  recent(options: { sessionId: string; limit: number; order: 'ASC' | 'DESC'; sender?: string; senderName?: string }): Promise<MessageValue[]>;
}

/**
 * The files a run may read, on its caller's behalf: `open` answers where on disk a file the caller may read lies.
 * A path given to a run (a tweak, an input, a Data's file_path) is the caller's to choose, so it is never read as
 * is: the service (src/services/files/caller-files.ts) allows the caller's own uploads and the operator's listed
 * folders only, and refuses anything else with the same words, whether it exists or not.
 */
export interface FileAccess {
  open(path: string): Promise<string>;
  /** Keeps `content` as a new file of the caller's (a v2 file); absent where a run has nowhere to save (the CLI). */
  save?(name: string, content: string): Promise<SavedFile>;
}

/** A file a run saved for its caller: its v2 id, its name in the caller's list, its path (what runs read). */
export interface SavedFile {
  id: string;
  name: string;
  path: string;
}

/** FileAccess for every caller at once, kept by the service; each run sees it scoped to its own caller. */
export interface CallersFiles {
  open(path: string, userId: string): Promise<string>;
  save?(userId: string, name: string, content: string): Promise<SavedFile>;
}

/**
 * Where the requests a component makes to URLs that a flow or an API caller gives (URL, API Request) may go: the
 * service's FLOWSVC_ALLOW_PRIVATE_NETWORK. Requests to model providers are not such requests.
 */
export interface NetworkPolicy {
  /** Loopback, private, link-local and metadata addresses may be reached too; off, such a request is refused. */
  allowPrivateNetwork: boolean;
  /** Commands MCP Tools may run as stdio MCP servers (FLOWSVC_MCP_STDIO_COMMANDS; absent: none). */
  mcpStdioCommands?: readonly string[];
}

/**
 * The service's default models for empty model fields (FLOWSVC_DEFAULT_MODEL, FLOWSVC_DEFAULT_EMBEDDING_MODEL), as
 * `provider/model`; see src/components/models/default-model.ts for the whole order.
 */
export interface ModelDefaults {
  language?: string;
  embedding?: string;
}

/** What a component may see of the world: never a store handle, an actor ref or a socket. */
export interface ComponentContext {
  signal: AbortSignal;
  emit(event: ComponentEvent): void;
  logger: Logger;
  /** Identity of this run and vertex. */
  run: { flowId: string; flowName: string; sessionId: string; userId: string; vertexId: string; displayName: string };
  /** Resolves a global variable by name; throws a clear error when it is not found. */
  variable(name: string): Promise<string>;
  memory: SessionMemory;
  /** The vertex upstream of a field, for `properties.source` of messages. */
  sourceOf(field: string): { id: string; displayName: string; source: string | null } | undefined;
  /** Outputs that feed an edge (all of them for a vertex without outgoing edges). */
  requested: ReadonlySet<string>;
  /** Values of fields the node has but the definition does not declare (Prompt's template variables). */
  dynamic: Readonly<Record<string, unknown>>;
  /** The files the caller may read (a bare engine run may have none: then File reads nothing). */
  files?: FileAccess;
  /** Absent (a bare engine), private addresses are refused, as with the service's default. */
  network?: NetworkPolicy;
  /** Absent (a bare engine), an empty model field takes the first provider whose variable resolves. */
  models?: ModelDefaults;
  /** The caller's knowledge bases and vector stores (absent in a bare engine: the knowledge components refuse). */
  knowledge?: KnowledgeAccess;
}

export type FieldMap = Record<string, FieldSpec>;

export type InputsOf<F extends FieldMap> = { [K in keyof F]: F[K] extends FieldSpec<infer T> ? T : never };

export interface ComponentDefinition<F extends FieldMap = FieldMap> {
  /** Langflow's `data.type`. */
  type: string;
  /** Older or alternative type keys that map to this component. */
  aliases?: string[];
  version: number;
  displayName: string;
  description: string;
  /** The /api/v1/all category (inputs, outputs, models, processing, ...). */
  category: string;
  icon: string;
  fields: F;
  outputs: OutputSpec[];
  /**
   * How undeclared fields of a node are read: Prompt declares `text`, so every template variable reaches
   * `ctx.dynamic` as text. Without it, undeclared template fields are ignored (Langflow's apply_tweaks does too).
   */
  dynamicFields?: Accepts;
  /** Set for a component the engine iterates (see LoopBehaviour). */
  loop?: LoopBehaviour;
  /** Computes the requested outputs (`ctx.requested`), by output name. */
  run(inputs: InputsOf<F>, ctx: ComponentContext): Promise<Record<string, unknown>>;
  /**
   * The heavy dependencies a node with these field values loads on first use (see shared/heavy-modules.ts): the
   * service loads them ahead, in the background, for every stored flow holding such a node, so that its first run
   * does not wait for them and a service whose flows never need them never holds them.
   */
  heavyModules?(params: Readonly<Record<string, unknown>>): readonly LazyModule<unknown>[];
}

/** Identity helper that infers a definition's input types from its fields. */
export function defineComponent<F extends FieldMap>(definition: ComponentDefinition<F>): ComponentDefinition<F> {
  return definition;
}
