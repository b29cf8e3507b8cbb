/**
 * The custom components a user stored (flows saved as components, `is_component`), as /api/v1/all entries: each
 * saved node whose type is not native and whose code is a custom component source, keyed by its type, under the
 * custom components category. Saved nodes of native types are the user's presets, not new components.
 */
import type { FlowRecord } from '../../protocol/flow.schema.js';
import { CUSTOM_CATEGORY } from '../components/custom/custom-component.js';
import { looksLikePython } from '../components/custom/python-source.js';
import { findComponent } from '../components/registry.js';
import { nodeCode } from './custom-node.js';
import { FlowNode } from './flow-json.js';

export function storedCustomNodes(flows: readonly FlowRecord[]): Record<string, unknown> {
  const nodes: Record<string, unknown> = {};
  for (const flow of flows) {
    const data = flow.data as { nodes?: unknown } | null | undefined;
    for (const raw of Array.isArray(data?.nodes) ? data.nodes : []) {
      const parsed = FlowNode.safeParse(raw);
      const type = parsed.success ? parsed.data.data?.type : undefined;
      const node = parsed.success ? parsed.data.data?.node : undefined;
      if (!type || !node || findComponent(type) || type === '__proto__') continue;
      const code = nodeCode(node.template ?? {});
      if (code !== undefined && !looksLikePython(code)) nodes[type] = node;
    }
  }
  return nodes;
}

/** The catalog's JSON with the user's components added as one more category (the catalog is serialised once). */
export function withStoredComponents(catalogJson: Buffer, nodes: Record<string, unknown>): Buffer {
  if (Object.keys(nodes).length === 0) return catalogJson;
  // The catalog is a non-empty JSON object: its closing brace is its last byte.
  const head = catalogJson.subarray(0, catalogJson.length - 1);
  return Buffer.concat([head, Buffer.from(`,${JSON.stringify(CUSTOM_CATEGORY)}:${JSON.stringify(nodes)}}`)]);
}
