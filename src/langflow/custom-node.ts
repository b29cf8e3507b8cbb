/**
 * A flow node whose type is not a native component: its `code` field (where Langflow exports keep a component's
 * source) is either Python, which is never run here, or a custom component in JavaScript/TypeScript, which runs in
 * a sandbox where the operator allows it (FLOWSVC_CUSTOM_COMPONENTS). Each refusal says why, for the flow's one 400.
 */
import type { ComponentDefinition, FieldMap } from '../components/contract.js';
import { looksLikePython } from '../components/custom/python-source.js';
import { unsupportedReason } from './unsupported-components.js';

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

/**
 * The component of a node that has no native one, or why it cannot run: a type we know of and do not run
 * (unsupported-components.ts) says so whatever code it holds, Python is never run, custom code only where allowed.
 */
export function customComponentOf(type: string, code: string | undefined, customs: CustomComponentSource | undefined): { component: ComponentDefinition<FieldMap> } | { reason: string } {
  const known = unsupportedReason(type);
  if (known) return { reason: known };
  if (code === undefined) return { reason: `unknown component type "${type}"` };
  if (looksLikePython(code)) return { reason: 'holds Python code for a component this service does not have: Python components are not run here' };
  if (!customs) return { reason: 'a custom component, and custom components are not allowed on this server (FLOWSVC_CUSTOM_COMPONENTS=true allows them)' };
  try {
    return { component: customs.componentOf(code) };
  } catch (error) {
    return { reason: `a custom component that cannot be used: ${error instanceof Error ? error.message : String(error)}` };
  }
}
