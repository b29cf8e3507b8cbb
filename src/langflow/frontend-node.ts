/**
 * A component definition as a Langflow "frontend node": the object /api/v1/all lists and the editor drops into a
 * flow as `data.node`. Generated from the definition alone, so a new component needs no template of its own.
 * Key set and value types follow Langflow's FrontendNode and Output models (lfx/template/frontend_node/base.py,
 * lfx/template/field/base.py), checked against the nodes of the starter projects.
 */
import type { ComponentDefinition, FieldMap, OutputSpec } from '../components/contract.js';
import type { FrontendNode, NodeOutput, NodeTemplate } from '../../protocol/meta.schema.js';
import { codeField, templateField } from './template-field.js';

/** What Langflow writes in an output's `value` until the output is computed. */
export const UNDEFINED_OUTPUT_VALUE = '__UNDEFINED__';

export function frontendNode(component: ComponentDefinition<FieldMap>): FrontendNode {
  const outputs = component.outputs.map(nodeOutput);
  return {
    template: nodeTemplate(component.fields),
    description: component.description,
    icon: component.icon,
    base_classes: baseClasses(component.outputs),
    display_name: component.displayName,
    documentation: '',
    minimized: false,
    custom_fields: {},
    output_types: [],
    pinned: false,
    conditional_paths: [],
    frozen: false,
    outputs,
    field_order: Object.keys(component.fields),
    beta: false,
    legacy: false,
    edited: false,
    // Langflow's module path names the Python class; ours names the native component, for the same purpose:
    // telling which implementation a node in a saved flow stands for.
    metadata: { module: `flowsvc.components.${component.category}.${component.type}` },
    tool_mode: false,
  };
}

function nodeTemplate(fields: FieldMap): NodeTemplate {
  const template: NodeTemplate = { _type: 'Component', code: codeField() };
  for (const [name, spec] of Object.entries(fields)) template[name] = templateField(name, spec);
  return template;
}

function nodeOutput(output: OutputSpec): NodeOutput {
  return {
    types: [...output.types],
    selected: output.types[0] ?? '',
    name: output.name,
    display_name: output.displayName,
    method: output.method,
    value: UNDEFINED_OUTPUT_VALUE,
    cache: true,
    allows_loop: output.allowsLoop === true,
    group_outputs: false,
    tool_mode: true,
  };
}

/** The union of the output types, de-duplicated and sorted case-insensitively as Langflow serialises it. */
function baseClasses(outputs: readonly OutputSpec[]): string[] {
  const unique = new Set(outputs.flatMap((output) => output.types));
  const key = (type: string) => type.toLowerCase();
  // Code-point order, like Python's sorted(): the same list on every machine, whatever its locale.
  return [...unique].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
