/** Runs the Data Operations component the way the engine does (inputs resolved and coerced), for table-driven tests. */
import type { ComponentContext, ComponentDefinition, FieldMap } from '../../src/components/contract.js';
import { dataOperations } from '../../src/components/data-operations/definition.js';
import type { GraphVertex } from '../../src/engine/graph.js';
import { resolveInputs } from '../../src/engine/resolve-inputs.js';
import { variableResolver } from '../../src/engine/variables.js';
import { createLogger } from '../../src/logger.js';

export interface OperationRun {
  /** Values arriving on edges, by field. */
  edges?: Record<string, unknown>;
  /** Outputs asked for (default: all, as for a vertex without outgoing edges). */
  requested?: string[];
  signal?: AbortSignal;
}

export async function runOperation(params: Record<string, unknown>, options: OperationRun = {}): Promise<Record<string, any>> {
  const component = dataOperations as unknown as ComponentDefinition<FieldMap>;
  const vertex: GraphVertex = { id: 'DataOperations-test1', type: 'DataOperations', displayName: 'Data Operations', component, params, variableFields: new Set(), dynamicFields: [] };
  const { inputs, dynamic } = await resolveInputs(vertex, options.edges ?? {}, undefined, variableResolver({}));
  const context: ComponentContext = {
    signal: options.signal ?? new AbortController().signal,
    emit: () => {},
    logger: createLogger('silent'),
    run: { flowId: 'flow-1', flowName: 'test', sessionId: 'session-1', userId: 'user-1', vertexId: vertex.id, displayName: vertex.displayName },
    variable: async (name) => {
      throw new Error(`no variable ${name}`);
    },
    memory: { store: async (m) => m, recent: async () => [] },
    sourceOf: () => undefined,
    requested: new Set(options.requested ?? component.outputs.map((o) => o.name)),
    dynamic,
  };
  return component.run(inputs as never, context);
}

/** The text of the `message` output. */
export const messageText = async (params: Record<string, unknown>, options?: OperationRun): Promise<string> => (await runOperation(params, options)).message.text;

/** The inner object of the JSON output. */
export const jsonOf = async (params: Record<string, unknown>, options?: OperationRun): Promise<unknown> => (await runOperation(params, options)).data_output.data;

/** The rows of the Table output. */
export const rowsOf = async (params: Record<string, unknown>, options?: OperationRun): Promise<Record<string, unknown>[]> => (await runOperation(params, options)).dataframe.rows;
