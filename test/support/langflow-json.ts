/** Small builders for Langflow-format flows in tests (the shape of an export, without the UI noise). */

type Field = { value?: unknown; [attr: string]: unknown };

/** A component node; template values may be plain values or full field objects (`{value, load_from_db, ...}`). */
export function node(id: string, type: string, template: Record<string, unknown> = {}, displayName?: string) {
  const fields: Record<string, Field> = {};
  for (const [name, value] of Object.entries(template)) {
    fields[name] = typeof value === 'object' && value !== null && !Array.isArray(value) && ('value' in value || 'load_from_db' in value) ? (value as Field) : { value };
  }
  return { id, type: 'genericNode', data: { id, type, node: { display_name: displayName ?? type, template: fields } } };
}

export function edge(source: string, output: string, target: string, field: string) {
  return {
    id: `reactflow__edge-${source}${output}-${target}${field}`,
    source,
    target,
    data: { sourceHandle: { id: source, name: output, dataType: source.split('-')[0], output_types: ['Message'] }, targetHandle: { id: target, fieldName: field, inputTypes: ['Message'], type: 'str' } },
  };
}

export function flow(name: string, nodes: unknown[], edges: unknown[], extra: Record<string, unknown> = {}) {
  return { name, data: { nodes, edges, viewport: { x: 0, y: 0, zoom: 1 } }, ...extra };
}

/** ChatInput -> ChatOutput, the smallest runnable chat flow. */
export function echoFlow(name = 'Echo', extra: Record<string, unknown> = {}) {
  return flow(name, [node('ChatInput-in001', 'ChatInput', {}, 'Chat Input'), node('ChatOutput-out01', 'ChatOutput', {}, 'Chat Output')], [edge('ChatInput-in001', 'message', 'ChatOutput-out01', 'input_value')], extra);
}
