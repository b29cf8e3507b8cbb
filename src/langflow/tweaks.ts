/**
 * Tweaks, as Langflow applies them (research: components section 2): a key whose value is an object targets the
 * node with that id, else the node with that display name; any other value sets that field on every node.
 * Applied to the flow JSON before the graph is built; only touched nodes are copied.
 */
import { findComponent } from '../components/registry.js';

type Json = Record<string, unknown>;

export type Tweaks = Record<string, unknown>;

export function applyTweaks(flowData: Json, tweaks: Tweaks | null | undefined): Json {
  if (!tweaks || Object.keys(tweaks).length === 0) return flowData;
  const nodes = Array.isArray(flowData.nodes) ? (flowData.nodes as Json[]) : [];
  const byId = new Map<string, number>();
  const byName = new Map<string, number>();
  nodes.forEach((node, index) => {
    if (typeof node?.id === 'string') byId.set(node.id, index);
    const name = nodeOf(node)?.display_name;
    if (typeof name === 'string') byName.set(name, index);
  });

  const next = [...nodes];
  const touch = (index: number, changes: Json) => (next[index] = withFields(next[index], changes));
  for (const [key, value] of Object.entries(tweaks)) {
    if (isObject(value)) {
      const index = byId.get(key) ?? byName.get(key);
      if (index !== undefined) touch(index, value);
    } else {
      next.forEach((_, index) => touch(index, { [key]: value }));
    }
  }
  return { ...flowData, nodes: next };
}

/** The node with each tweaked field set, when the node has that field or its component declares it. */
function withFields(node: Json, changes: Json): Json {
  const inner = nodeOf(node);
  if (!inner) return node;
  const component = findComponent(String((node.data as Json).type));
  const template = { ...((inner.template as Json | undefined) ?? {}) };
  let changed = false;
  for (const [field, value] of Object.entries(changes)) {
    const current = Object.hasOwn(template, field) ? template[field] : undefined;
    const spec = component && Object.hasOwn(component.fields, field) ? component.fields[field] : undefined;
    if (!isObject(current) && !spec) continue;
    const base: Json = isObject(current) ? { ...current } : { type: spec!.type, show: true };
    const isFile = base.type === 'file';
    if (isObject(value) && base.type !== 'dict' && base.type !== 'NestedDict') {
      for (const [attr, attrValue] of Object.entries(value)) base[isFile && attr === 'value' ? 'file_path' : attr] = attrValue;
    } else {
      base[isFile ? 'file_path' : 'value'] = value;
      // A tweaked value is a literal: it no longer names a global variable.
      if (base.load_from_db) base.load_from_db = false;
    }
    template[field] = base;
    changed = true;
  }
  if (!changed) return node;
  return { ...node, data: { ...(node.data as Json), node: { ...inner, template } } };
}

function nodeOf(node: Json | undefined): Json | undefined {
  const data = node?.data;
  return isObject(data) && isObject(data.node) ? data.node : undefined;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
