/**
 * Level 4 of flow validation: what a run would need from its caller, checked without running. Every required
 * input has a value or a connection, every field naming a global variable finds it, and every empty model field
 * finds a default model (src/components/models/default-model.ts), with what to set where one is missing.
 */
import type { ComponentContext } from '../components/contract.js';
import { defaultModel } from '../components/models/default-model.js';
import type { ModelKind } from '../components/models/model-catalog.js';
import { isInputType } from '../engine/graph.js';
import { ModelNotConfiguredError } from '../errors/model-not-configured.error.js';
import type { FlowEdge } from './flow-json.js';
import { TemplateField } from './flow-json.js';
import type { CheckedNode } from './flow-validation.js';
import { paramOf } from './template-params.js';

/** Where a run would find variables and default models: the caller's, the environment's. */
export type RequirementSources = Pick<ComponentContext, 'variable' | 'models'>;

const isEmpty = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

export async function checkRequirements(nodes: Map<string, CheckedNode>, edges: FlowEdge[], sources: RequirementSources, report: (node: CheckedNode, message: string) => void): Promise<void> {
  const connected = new Set(edges.map((edge) => `${edge.data!.targetHandle!.id ?? edge.target}\u0000${edge.data!.targetHandle!.fieldName}`));
  for (const checked of nodes.values()) {
    const component = checked.component;
    if (!component) continue;
    const template = checked.node.data?.node?.template ?? {};
    // The run's input fills the input components' input_value.
    const fedByRun = isInputType(component.type) ? 'input_value' : undefined;
    for (const [name, raw] of Object.entries(template)) {
      const field = TemplateField.safeParse(raw);
      const spec = component.fields[name];
      if (!field.success || !spec || field.data.show === false || name === fedByRun || connected.has(`${checked.node.id}\u0000${name}`)) continue;
      const label = `"${field.data.display_name ?? spec.displayName}" (${name})`;
      if (spec.type === 'model') {
        if (isEmpty(field.data.value)) await checkDefaultModel(checked, raw, label, sources, report);
        continue;
      }
      const param = paramOf(field.data, spec);
      if (param.kind === 'variable') {
        const found = await sources.variable(param.name).then(() => true, () => false);
        if (!found) report(checked, `${label} names the variable ${param.name}, which is not set: set it as a global variable or an X-FLOWSVC-GLOBAL-VAR-* request header, or in the environment`);
        continue;
      }
      const required = (raw as { required?: unknown }).required === true || spec.required === true;
      if (required && isEmpty(field.data.value) && isEmpty(spec.value)) report(checked, `Required input ${label} has no value and no connection`);
    }
  }
}

async function checkDefaultModel(checked: CheckedNode, raw: unknown, label: string, sources: RequirementSources, report: (node: CheckedNode, message: string) => void) {
  const kind: ModelKind = (raw as { model_type?: unknown }).model_type === 'embedding' ? 'embedding' : 'language';
  try {
    await defaultModel(kind, sources, `The ${label} field`);
  } catch (error) {
    if (!(error instanceof ModelNotConfiguredError)) throw error;
    report(checked, error.message);
  }
}
