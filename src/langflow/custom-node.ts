/**
 * A flow node whose type is not a native component: its `code` field (where Langflow exports keep a component's
 * source) is either Python, which is never run here, or a custom component in JavaScript/TypeScript, which runs in
 * a sandbox where the operator allows it (FLOWSVC_CUSTOM_COMPONENTS). Each refusal is a 400 naming the node.
 */
import type { ComponentDefinition, FieldMap } from '../components/contract.js';
import { looksLikePython } from '../components/custom/python-source.js';
import { FlowInvalidError } from '../errors/index.js';

/** What turns a node's source into a component (the service's CustomComponents, when custom code is allowed). */
export interface CustomComponentSource {
  componentOf(code: string): ComponentDefinition<FieldMap>;
}

/** The node's `code` value, if it has one. */
export function nodeCode(template: Record<string, unknown>): string | undefined {
  const field = template.code;
  const value = typeof field === 'object' && field !== null ? (field as { value?: unknown }).value : undefined;
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** The component of a node that has no native one; throws FlowInvalidError saying why it cannot run. */
export function customComponentOf(nodeId: string, type: string, code: string | undefined, customs: CustomComponentSource | undefined): ComponentDefinition<FieldMap> {
  if (code === undefined) throw new FlowInvalidError(`Node ${nodeId} has an unknown component type "${type}"`, nodeId);
  if (looksLikePython(code)) {
    throw new FlowInvalidError(`Node ${nodeId} ("${type}") holds Python code for a component this service does not have: Python components are not run here`, nodeId);
  }
  if (!customs) {
    throw new FlowInvalidError(`Node ${nodeId} ("${type}") is a custom component, and custom components are not allowed on this server (FLOWSVC_CUSTOM_COMPONENTS=true allows them)`, nodeId);
  }
  try {
    return customs.componentOf(code);
  } catch (error) {
    throw new FlowInvalidError(`Node ${nodeId} ("${type}") is a custom component that cannot be used: ${error instanceof Error ? error.message : String(error)}`, nodeId);
  }
}
