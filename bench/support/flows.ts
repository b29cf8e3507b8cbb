/** Flows the benches run, in Langflow's export shape. */

function node(id: string, type: string) {
  return { id, type: 'genericNode', data: { id, type, node: { display_name: id, template: {} } } };
}

function edge(source: string, output: string, target: string, field: string) {
  return { source, target, data: { sourceHandle: { id: source, name: output }, targetHandle: { id: target, fieldName: field } } };
}

/** ChatInput -> ChatOutput, storing both messages (the default). */
export function echoFlow(name: string) {
  return { name, data: { nodes: [node('ChatInput-in', 'ChatInput'), node('ChatOutput-out', 'ChatOutput')], edges: [edge('ChatInput-in', 'message', 'ChatOutput-out', 'input_value')] } };
}

/** ChatInput -> (n - 2) TextOutputs in a line -> ChatOutput: n vertices. */
export function chainFlow(name: string, n: number) {
  const nodes = [node('ChatInput-in', 'ChatInput')];
  const edges = [];
  let previous = { id: 'ChatInput-in', output: 'message' };
  for (let i = 0; i < n - 2; i++) {
    const id = `TextOutput-${i}`;
    nodes.push(node(id, 'TextOutput'));
    edges.push(edge(previous.id, previous.output, id, 'input_value'));
    previous = { id, output: 'text' };
  }
  nodes.push(node('ChatOutput-out', 'ChatOutput'));
  edges.push(edge(previous.id, previous.output, 'ChatOutput-out', 'input_value'));
  return { name, data: { nodes, edges } };
}
