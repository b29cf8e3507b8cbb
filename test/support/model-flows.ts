/** Flows and clients for the model-component tests: Chat Input -> <model node> -> Chat Output, and friends. */
import { LangflowClient } from '@datastax/langflow-client';
import { edge, flow, node } from './langflow-json.js';
import { startModelServer, type ModelServer } from './model-server.js';
import { startTestServer, type TestServer } from './server.js';

/**
 * The variable the tests' model nodes read their key from, sent as a request header. Its name has no underscore:
 * the uWebSockets.js build we run drops requests whose header names contain one (reported to the lead), so
 * `X-FLOWSVC-GLOBAL-VAR-OPENAI_API_KEY` cannot reach the service; OPENAI_API_KEY itself is a stored variable.
 */
export const HEADER_KEY = 'OPENAIKEY';

/** The Langflow client, sending `variables` as X-FLOWSVC-GLOBAL-VAR-<NAME> headers with every request. */
export function modelClient(server: TestServer, variables: Record<string, string> = { [HEADER_KEY]: 'sk-from-header' }): LangflowClient {
  const headers = new Headers();
  for (const [name, value] of Object.entries(variables)) headers.set(`X-FLOWSVC-GLOBAL-VAR-${name}`, value);
  return new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey, defaultHeaders: headers as never });
}

/** ChatInput -> model node (input_value) -> ChatOutput, the Basic Prompting shape without its Prompt. */
export function chatModelFlow(name: string, type: string, template: Record<string, unknown>, modelId = `${type}-model1`) {
  return flow(
    name,
    [node('ChatInput-in001', 'ChatInput', {}, 'Chat Input'), node(modelId, type, template, displayNames[type] ?? type), node('ChatOutput-out01', 'ChatOutput', {}, 'Chat Output')],
    [edge('ChatInput-in001', 'message', modelId, 'input_value'), edge(modelId, type === 'Agent' ? 'response' : 'text_output', 'ChatOutput-out01', 'input_value')],
  );
}

const displayNames: Record<string, string> = { LanguageModelComponent: 'Language Model', OpenAIModel: 'OpenAI', AnthropicModel: 'Anthropic', OllamaModel: 'Ollama', Agent: 'Agent' };

/** The api_key field as a Langflow export holds it: the name of a global variable. */
export const keyVariable = (name = HEADER_KEY) => ({ value: name, load_from_db: true });

/** A Language Model node's template: OpenAI's gpt-4o-mini, its key from the header variable. */
export const openaiModelTemplate = (extra: Record<string, unknown> = {}) => ({ provider: 'OpenAI', model_name: 'gpt-4o-mini', api_key: keyVariable(), ...extra });

/** Chat Input -> Language Model `-first` -> Language Model `-second` -> Chat Output: two model calls in a row. */
export function twoModelChainFlow(name: string) {
  return flow(
    name,
    [
      node('ChatInput-in001', 'ChatInput'),
      node('LanguageModelComponent-first', 'LanguageModelComponent', openaiModelTemplate()),
      node('LanguageModelComponent-second', 'LanguageModelComponent', openaiModelTemplate()),
      node('ChatOutput-out01', 'ChatOutput'),
    ],
    [
      edge('ChatInput-in001', 'message', 'LanguageModelComponent-first', 'input_value'),
      edge('LanguageModelComponent-first', 'text_output', 'LanguageModelComponent-second', 'input_value'),
      edge('LanguageModelComponent-second', 'text_output', 'ChatOutput-out01', 'input_value'),
    ],
  );
}

/** Collects every event of a streamed run. */
export async function collect(stream: ReadableStream<unknown>): Promise<{ event: string; data: any }[]> {
  const events: { event: string; data: any }[] = [];
  for await (const event of stream as unknown as AsyncIterable<{ event: string; data: any }>) events.push(event);
  return events;
}

/**
 * The local model server plus a service pointed at it through OPENAI_BASE_URL (the service runs in this
 * process), optionally with OPENAI_API_KEY stored as a global variable (the starters' key fields name it).
 */
export async function startModelStack(options: { storeKey?: boolean } = {}): Promise<{ model: ModelServer; server: TestServer; close(): Promise<void> }> {
  const model = await startModelServer();
  process.env.OPENAI_BASE_URL = model.baseURL;
  const server = await startTestServer({ FALLBACK_TO_ENV_VAR: 'false' });
  if (options.storeKey) {
    const stored = await server.request('/api/v1/variables/', { method: 'POST', json: { name: 'OPENAI_API_KEY', value: 'sk-stored', default_fields: [] } });
    if (stored.status !== 201) throw new Error(`store the key variable: ${stored.status}`);
  }
  return {
    model,
    server,
    async close() {
      await server.close();
      await model.close();
    },
  };
}
