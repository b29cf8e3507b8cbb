/** Flows with a model node, for the model benches. */

/** ChatInput -> Language Model (OpenAI, streaming) -> ChatOutput, in Langflow's export shape. */
export function modelStreamFlow(name: string) {
  const node = (id: string, type: string, template: Record<string, unknown> = {}) => ({ id, type: 'genericNode', data: { id, type, node: { display_name: type, template } } });
  const edge = (source: string, output: string, target: string, field: string) => ({
    id: `reactflow__edge-${source}${output}-${target}${field}`,
    source,
    target,
    data: { sourceHandle: { id: source, name: output, dataType: source.split('-')[0], output_types: ['Message'] }, targetHandle: { id: target, fieldName: field, inputTypes: ['Message'], type: 'str' } },
  });
  const model = {
    provider: { value: 'OpenAI' },
    model_name: { value: 'gpt-4o-mini' },
    api_key: { value: 'sk-bench', load_from_db: false },
    stream: { value: true },
  };
  const nodes = [node('ChatInput-in', 'ChatInput'), node('LanguageModelComponent-lm', 'LanguageModelComponent', model), node('ChatOutput-out', 'ChatOutput')];
  const edges = [edge('ChatInput-in', 'message', 'LanguageModelComponent-lm', 'input_value'), edge('LanguageModelComponent-lm', 'text_output', 'ChatOutput-out', 'input_value')];
  return { name, data: { nodes, edges, viewport: { x: 0, y: 0, zoom: 1 } } };
}
