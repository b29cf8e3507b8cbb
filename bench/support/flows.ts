/** Flows the benches run, in Langflow's export shape. */

function node(id: string, type: string, template: Record<string, unknown> = {}) {
  return { id, type: 'genericNode', data: { id, type, node: { display_name: id, template } } };
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

/**
 * n vertices, half a chain and half a fan-out: ChatInput -> TextOutputs in a line -> (n - 2) / 2 parallel
 * TextOutputs -> one Prompt joining them all (one template variable per branch) -> ChatOutput.
 */
export function chainAndFanOutFlow(name: string, n: number) {
  const width = Math.floor((n - 2) / 2);
  const chain = chainFlow(name, n - width - 1);
  const nodes = chain.data.nodes.slice(0, -1);
  const edges = chain.data.edges.slice(0, -1);
  const last = nodes[nodes.length - 1].id;
  const variables = Array.from({ length: width }, (_, i) => `b${i}`);
  nodes.push(node('Prompt-join', 'Prompt', { template: { value: variables.map((v) => `{${v}}`).join(' ') } }));
  for (const variable of variables) {
    const id = `TextOutput-${variable}`;
    nodes.push(node(id, 'TextOutput'));
    edges.push(edge(last, 'text', id, 'input_value'), edge(id, 'text', 'Prompt-join', variable));
  }
  nodes.push(node('ChatOutput-out', 'ChatOutput'));
  edges.push(edge('Prompt-join', 'prompt', 'ChatOutput-out', 'input_value'));
  return { name, data: { nodes, edges } };
}

/**
 * The echo flow plus a Message History (Memory) retrieving the session's last `messages` into a TextOutput: the
 * echo flow is its baseline, so the difference is the retrieval (and one more vertex carrying the text).
 */
export function memoryFlow(name: string, messages: number) {
  const echo = echoFlow(name);
  const memory = node('Memory-history', 'Memory', { mode: { value: 'Retrieve' }, n_messages: { value: messages }, order: { value: 'Ascending' } });
  return {
    name,
    data: {
      nodes: [...echo.data.nodes, memory, node('TextOutput-history', 'TextOutput')],
      edges: [...echo.data.edges, edge('Memory-history', 'messages_text', 'TextOutput-history', 'input_value')],
    },
  };
}
