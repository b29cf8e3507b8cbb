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

/**
 * A memory chatbot of our own, in the shape of Langflow's: Memory (the session's earlier messages as text) -> Prompt
 * -> the model's system message, Chat Input -> the model's input, the model -> Chat Output.
 */
export function memoryChatbotFlow(name = 'Memory Chatbot') {
  return flow(
    name,
    [
      node('ChatInput-mem01', 'ChatInput', {}, 'Chat Input'),
      node('Memory-mem01', 'Memory', { mode: 'Retrieve', n_messages: 100, order: 'Ascending', sender_type: 'Machine and User', template: '{sender_name}: {text}' }, 'Message History'),
      node('Prompt-mem01', 'Prompt', { template: 'Answer with the conversation so far in mind.\n\nEarlier turns:\n{memory}\n', memory: '' }, 'Prompt'),
      node('LanguageModelComponent-mem01', 'LanguageModelComponent', openaiModelTemplate(), 'Language Model'),
      node('ChatOutput-mem01', 'ChatOutput', {}, 'Chat Output'),
    ],
    [
      edge('Memory-mem01', 'messages_text', 'Prompt-mem01', 'memory'),
      edge('Prompt-mem01', 'prompt', 'LanguageModelComponent-mem01', 'system_message'),
      edge('ChatInput-mem01', 'message', 'LanguageModelComponent-mem01', 'input_value'),
      edge('LanguageModelComponent-mem01', 'text_output', 'ChatOutput-mem01', 'input_value'),
    ],
  );
}

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
