/** Custom component sources for the tests: the README's example, and one-output components around a `run`. */

/** The example of the README (issue #22), in TypeScript. */
export const SHOUT_SOURCE = `export default {
  displayName: 'Shout',
  description: 'Upper-cases a message and repeats it.',
  fields: {
    text: { kind: 'handle', displayName: 'Text', inputTypes: ['Message'], required: true },
    times: { kind: 'int', displayName: 'Times', value: 2 },
  },
  outputs: [{ name: 'shouted', displayName: 'Shouted', types: ['Message'] }],
  run(inputs: { text: { text: string }; times: number }) {
    return { shouted: Array(inputs.times).fill(inputs.text.text.toUpperCase()).join(' ') };
  },
};
`;

/** A component with one text field `text` and one output `out` of `types`, whose run is `run` (a method). */
export function customSource(run: string, types: string[] = ['Message'], name = 'Probe'): string {
  return `export default {
  displayName: '${name}',
  fields: { text: { kind: 'text', displayName: 'Text' } },
  outputs: [{ name: 'out', displayName: 'Out', types: ${JSON.stringify(types)} }],
  ${run},
};
`;
}

/** ChatInput -> a custom node holding `code` (field `text`, output `output`) -> ChatOutput, as a Langflow export. */
export function customFlow(name: string, code: string, output = 'shouted', type = 'Shout', template: Record<string, unknown> = {}) {
  const node = (id: string, nodeType: string, fields: Record<string, unknown>) => ({
    id,
    type: 'genericNode',
    data: { id, type: nodeType, node: { display_name: nodeType, template: Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, { value }])) } },
  });
  const edge = (source: string, sourceOutput: string, target: string, field: string) => ({
    id: `${source}-${target}`,
    source,
    target,
    data: { sourceHandle: { id: source, name: sourceOutput }, targetHandle: { id: target, fieldName: field } },
  });
  return {
    name,
    data: {
      nodes: [node('ChatInput-in001', 'ChatInput', {}), node(`${type}-cc001`, type, { code, ...template }), node('ChatOutput-out01', 'ChatOutput', {})],
      edges: [edge('ChatInput-in001', 'message', `${type}-cc001`, 'text'), edge(`${type}-cc001`, output, 'ChatOutput-out01', 'input_value')],
    },
  };
}
