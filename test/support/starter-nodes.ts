/** Pieces of the real Langflow starter exports (their nodes and the edges between them), to build test flows from. */
import { starterFlow } from './flow-helpers.js';

/** The named nodes of a starter with the starter's own edges among them, plus extra nodes and edges. */
export function starterSubflow(starter: string, nodeIds: string[], extra: { nodes?: unknown[]; edges?: unknown[]; name?: string } = {}) {
  const data = starterFlow(starter).data;
  const keep = new Set(nodeIds);
  const nodes = data.nodes.filter((n: { id: string }) => keep.has(n.id));
  if (nodes.length !== nodeIds.length) throw new Error(`${starter} lacks some of ${nodeIds.join(', ')}`);
  const edges = data.edges.filter((e: { source: string; target: string }) => keep.has(e.source) && keep.has(e.target));
  return { name: extra.name ?? `${starter} (part)`, data: { nodes: [...nodes, ...(extra.nodes ?? [])], edges: [...edges, ...(extra.edges ?? [])], viewport: { x: 0, y: 0, zoom: 1 } } };
}

/** A starter node's template field values, by field name. */
export function starterValues(starter: string, nodeId: string): Record<string, unknown> {
  const node = starterFlow(starter).data.nodes.find((n: { id: string }) => n.id === nodeId);
  return Object.fromEntries(Object.entries(node.data.node.template as Record<string, { value?: unknown }>).map(([k, v]) => [k, v?.value]));
}
