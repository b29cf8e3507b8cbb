/**
 * Flows for the hosted-service component tests: the component fed by Chat Input and read through Parser into Chat
 * Output (its own result, as text), and a server with its key stored as a global variable.
 */
import { edge, flow, node } from './langflow-json.js';
import type { TestServer } from './server.js';

/** Chat Input -> `<type>`.`inputField`, `<type>`.`output` -> Parser (`pattern`) -> Chat Output. */
export function serviceFlow(type: string, template: Record<string, unknown>, inputField: string, output: string, pattern = '{text}') {
  const id = `${type}-svc01`;
  return flow(
    `${type} flow`,
    [node('ChatInput-in001', 'ChatInput', {}, 'Chat Input'), node(id, type, template), node('ParserComponent-p0001', 'ParserComponent', { mode: 'Parser', pattern, sep: '\n' }, 'Parser'), node('ChatOutput-out01', 'ChatOutput', {}, 'Chat Output')],
    [edge('ChatInput-in001', 'message', id, inputField), edge(id, output, 'ParserComponent-p0001', 'input_data'), edge('ParserComponent-p0001', 'parsed_text', 'ChatOutput-out01', 'input_value')],
  );
}

export async function storeVariable(server: TestServer, name: string, value: string): Promise<void> {
  const res = await server.request('/api/v1/variables/', { method: 'POST', json: { name, value, type: 'Credential', default_fields: [] } });
  if (res.status !== 201) throw new Error(`store ${name}: ${res.status} ${await res.text()}`);
}

/** The reply's Chat Output text of a /api/v1/run answer. */
export const chatText = (body: any): string => body.outputs?.[0]?.outputs?.[0]?.results?.message?.text ?? '';
