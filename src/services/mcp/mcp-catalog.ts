/**
 * Which flows are MCP tools, under which names, with which descriptions and input schemas (Langflow's rules,
 * research section 7). The global server offers the user's own flows; a project's server the flows enabled there.
 */
import type { FlowRecord } from '../../../protocol/flow.schema.js';
import { toolInputSchema, type ToolInputSchema } from '../../langflow/mcp-input-schema.js';
import { MAX_MCP_TOOL_NAME_LENGTH, sanitizeMcpName, uniqueMcpName } from '../../langflow/mcp-tool-names.js';
import type { Store } from '../../store/port.js';
import type { FlowRunner } from '../flow-runner.js';
import type { McpScope } from './mcp-scope.js';

export interface FlowTool {
  name: string;
  description: string;
  flow: FlowRecord;
}

export interface ToolListing {
  name: string;
  description: string;
  inputSchema: ToolInputSchema;
}

/** The schema of a flow whose graph does not build: the one input every chat flow takes. */
const FALLBACK_SCHEMA: ToolInputSchema = {
  type: 'object',
  properties: { input_value: { type: 'string', description: 'Message to be passed as input.' } },
  required: [],
};

const byCreation = (a: FlowRecord, b: FlowRecord) => (a.created_at ?? a.updated_at).localeCompare(b.created_at ?? b.updated_at);

export class McpCatalog {
  /**
   * The global server's tools by user, until one of their flows changes (`forget`): every call looks its tool up,
   * and decoding all of a user's flows per call cost more than the run of an echo flow. A project's tools are
   * read each time (its membership also changes through project updates, which no flow hook sees).
   */
  private readonly userTools = new Map<string, Promise<FlowTool[]>>();

  constructor(
    private readonly store: Store,
    private readonly runner: Pick<FlowRunner, 'graphOf'>,
  ) {}

  /** The scope's flows as tools, in creation order, named uniquely. */
  tools(scope: McpScope): Promise<FlowTool[]> {
    if (scope.kind === 'project') return this.read(scope);
    let tools = this.userTools.get(scope.ownerId);
    if (!tools) {
      tools = this.read(scope);
      this.userTools.set(scope.ownerId, tools);
      tools.catch(() => this.userTools.delete(scope.ownerId));
    }
    return tools;
  }

  /** A flow of `ownerId` was created, changed or deleted. */
  forget(ownerId: string): void {
    this.userTools.delete(ownerId);
  }

  private async read(scope: McpScope): Promise<FlowTool[]> {
    const flows = scope.kind === 'user' ? await this.store.flows.listByUser(scope.ownerId) : await this.store.flows.listByFolder(scope.projectId);
    const offered = flows.filter((flow) => flow.user_id === scope.ownerId && !flow.is_component && (scope.kind === 'user' || flow.mcp_enabled)).sort(byCreation);
    const taken = new Set<string>();
    return offered.map((flow) => {
      const base = scope.kind === 'user' ? sanitizeMcpName(flow.name) : sanitizeMcpName(flow.action_name || flow.name);
      const name = uniqueMcpName(base.slice(0, MAX_MCP_TOOL_NAME_LENGTH), taken);
      taken.add(name);
      return { name, description: describe(scope, flow), flow };
    });
  }

  async find(scope: McpScope, name: string): Promise<FlowTool | undefined> {
    return (await this.tools(scope)).find((tool) => tool.name === name);
  }

  /** What tools/list answers: each tool with the input schema of its flow's input components. */
  async listing(scope: McpScope): Promise<ToolListing[]> {
    return (await this.tools(scope)).map((tool) => ({ name: tool.name, description: tool.description, inputSchema: this.schemaOf(tool.flow) }));
  }

  private schemaOf(flow: FlowRecord): ToolInputSchema {
    try {
      return toolInputSchema(this.runner.graphOf(flow), flow.data);
    } catch {
      // A flow that does not build still lists (its call answers the error), as Langflow lists it.
      return FALLBACK_SCHEMA;
    }
  }
}

/** Langflow's descriptions: a project's action description first; the global server prefixes the flow id. */
export function describe(scope: McpScope, flow: FlowRecord): string {
  const fallback = `Tool generated from flow: ${flow.name}`;
  if (scope.kind === 'project') return flow.action_description || flow.description || fallback;
  return flow.description ? `${flow.id}: ${flow.description}` : fallback;
}
