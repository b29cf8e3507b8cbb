/**
 * A custom component as the frontend node the editor renders: the native node shape (frontend-node.ts) with the
 * component's source in its `code` field, which is where a flow node keeps it and where a run reads it from.
 */
import type { FrontendNode } from '../../protocol/meta.schema.js';
import type { ComponentDefinition, FieldMap } from '../components/contract.js';
import { frontendNode } from './frontend-node.js';
import { codeField } from './template-field.js';

export function customFrontendNode(component: ComponentDefinition<FieldMap>, code: string, hash: string): FrontendNode {
  const node = frontendNode(component);
  node.template.code = { ...codeField(), value: code };
  node.metadata = { module: `flowsvc.custom.${component.type}`, code_hash: hash };
  return node;
}

/**
 * The values of `previous` (the node the editor had) carried onto `node` for the fields both have: changing a
 * component's code keeps what the user had typed into the fields that remain.
 */
export function withPreviousValues(node: FrontendNode, previous: Record<string, unknown> | undefined): FrontendNode {
  if (!previous) return node;
  for (const [name, field] of Object.entries(node.template)) {
    if (name === 'code' || name === '_type' || typeof field !== 'object' || field === null) continue;
    const old = Object.hasOwn(previous, name) ? previous[name] : undefined;
    if (typeof old === 'object' && old !== null && 'value' in old) (field as { value?: unknown }).value = (old as { value: unknown }).value;
  }
  return node;
}
