/**
 * Tool mode: a component exposed to an Agent as tools (Langflow's `component_as_tool` / "Toolset" output).
 * Wrap a definition with `withToolMode` and register the result: it gains the `component_as_tool` output, whose
 * value is one ToolValue per other output. A tool is named after the output's method (Calculator's `result`
 * output, method `evaluate_expression`, becomes the tool `evaluate_expression`), takes the fields marked
 * `toolMode: true` as its arguments, and runs the component with the node's own values for everything else.
 */
import { toText } from '../../values/coerce.js';
import { isData } from '../../values/data.js';
import { isMessage } from '../../values/message.js';
import { isTable } from '../../values/table.js';
import { TOOL_NAME, type ToolValue } from '../../values/tool.js';
import { ComponentError } from '../component.error.js';
import type { ComponentContext, ComponentDefinition, FieldMap, FieldSpec, InputsOf, OutputSpec } from '../contract.js';

export const TOOL_OUTPUT: OutputSpec = { name: 'component_as_tool', displayName: 'Toolset', types: ['Tool'], method: 'to_toolkit' };

/**
 * `checkBeforeToolset` runs before the toolset is handed to an Agent (a hosted service's API key): what it throws
 * fails the run with its own error before the model is asked anything, while what fails once the model calls the
 * tool (a 401, a timeout) goes back to the model as the tool's result, as in Langflow.
 */
export function withToolMode<F extends FieldMap>(
  definition: ComponentDefinition<F>,
  checkBeforeToolset?: (inputs: InputsOf<F>, ctx: ComponentContext) => Promise<unknown>,
): ComponentDefinition<F> {
  return {
    ...definition,
    outputs: [...definition.outputs, TOOL_OUTPUT],
    async run(inputs, ctx) {
      if (!ctx.requested.has(TOOL_OUTPUT.name)) return definition.run(inputs, ctx);
      await checkBeforeToolset?.(inputs, ctx);
      const others = new Set([...ctx.requested].filter((name) => name !== TOOL_OUTPUT.name));
      const outputs = others.size > 0 ? await definition.run(inputs, contextWith(ctx, { requested: others })) : {};
      return { ...outputs, [TOOL_OUTPUT.name]: toolsOf(definition, inputs, ctx) };
    },
  };
}

/** One tool per output of the component, bound to this node's inputs. */
export function toolsOf<F extends FieldMap>(definition: ComponentDefinition<F>, inputs: InputsOf<F>, ctx: ComponentContext): ToolValue[] {
  const argFields = Object.entries(definition.fields).filter(([, spec]) => spec.toolMode);
  const parameters = {
    type: 'object',
    properties: Object.fromEntries(argFields.map(([name, spec]) => [name, { type: jsonType(spec), description: spec.info ?? spec.displayName }])),
    required: argFields.map(([name]) => name),
    additionalProperties: false,
  };
  return definition.outputs.map((output) => {
    const name = output.method.replace(/[^a-zA-Z0-9_-]/g, '_');
    if (!TOOL_NAME.test(name)) throw new ComponentError(`Output ${output.name} of ${definition.displayName} cannot be a tool: its method name is empty.`);
    return {
      kind: 'tool' as const,
      name,
      description: definition.description,
      parameters,
      async invoke(args, signal) {
        const callInputs: Record<string, unknown> = { ...inputs };
        for (const [field, spec] of argFields) if (field in args) callInputs[field] = argValue(spec, field, args[field]);
        const result = await definition.run(callInputs as InputsOf<F>, contextWith(ctx, { signal, requested: new Set([output.name]) }));
        return toolResult(result[output.name]);
      },
    };
  });
}

/**
 * The same context with some parts changed. Property by property, not a spread: the engine's context is a class
 * whose parts are prototype getters, which a spread would drop. Every part is listed, the optional ones too: a part
 * left out here (the network policy once was) silently gives a tool the bare engine's defaults.
 */
export function contextWith(ctx: ComponentContext, changes: Partial<ComponentContext>): ComponentContext {
  const { signal, emit, logger, run, variable, memory, requested, dynamic, files, network, models, knowledge } = ctx;
  // Every key of the contract, required here, so that a part added to it later cannot be forgotten again.
  const parts: { [K in keyof Required<ComponentContext>]: ComponentContext[K] } = { signal, emit, logger, run, variable, memory, sourceOf: (field) => ctx.sourceOf(field), requested, dynamic, files, network, models, knowledge };
  return { ...parts, ...changes };
}

function argValue(spec: FieldSpec, field: string, value: unknown): unknown {
  const parsed = spec.schema.safeParse(spec.accepts === 'text' ? toText(value) : value);
  if (!parsed.success) throw new ComponentError(`Tool argument ${field}: ${parsed.error.issues[0]?.message ?? 'invalid value'}`);
  return parsed.data;
}

function jsonType(spec: FieldSpec): string {
  switch (spec.type) {
    case 'int':
      return 'integer';
    case 'float':
    case 'slider':
      return 'number';
    case 'bool':
      return 'boolean';
    case 'dict':
    case 'NestedDict':
      return 'object';
    default:
      return 'string';
  }
}

/** What the model reads back: a Message's text, a Data's object, a Table's rows. */
export function toolResult(value: unknown): unknown {
  if (isMessage(value)) return value.text;
  if (isData(value)) return value.data;
  if (isTable(value)) return value.rows;
  return value ?? null;
}
