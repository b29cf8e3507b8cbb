/**
 * The two things the flows API reads inside a flow's `data` (everything else is kept as given):
 * whether it has a Webhook node, and which template values are secrets to leave out of exports.
 */
import type { FlowRecord } from '../../protocol/flow.schema.js';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function nodesOf(data: Record<string, unknown> | null): unknown[] {
  return data && Array.isArray(data.nodes) ? data.nodes : [];
}

/** Langflow's `webhook` flag: some node's id names a Webhook (we also accept `data.type`, which ids normally repeat). */
export function hasWebhookNode(data: Record<string, unknown> | null): boolean {
  return nodesOf(data).some(
    (node) => isObject(node) && ((typeof node.id === 'string' && node.id.includes('Webhook')) || (isObject(node.data) && node.data.type === 'Webhook')),
  );
}

/**
 * A copy of the flow with secret values nulled: template fields marked `password: true` that hold a literal value.
 * A `load_from_db` value is the *name* of a global variable, not a secret, so it stays and exports keep pointing at it.
 */
export function withoutSecrets<T extends Pick<FlowRecord, 'data'>>(flow: T): T {
  if (!flow.data || !nodesOf(flow.data).some(hasSecret)) return flow;
  const data = structuredClone(flow.data);
  for (const node of nodesOf(data)) {
    for (const field of secretFields(node)) field.value = null;
  }
  return { ...flow, data };
}

function hasSecret(node: unknown): boolean {
  return secretFields(node).length > 0;
}

function secretFields(node: unknown): Record<string, unknown>[] {
  if (!isObject(node) || !isObject(node.data) || !isObject(node.data.node) || !isObject(node.data.node.template)) return [];
  return Object.values(node.data.node.template).filter(
    (field): field is Record<string, unknown> =>
      isObject(field) && field.password === true && field.load_from_db !== true && typeof field.value === 'string' && field.value !== '',
  );
}
