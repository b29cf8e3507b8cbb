/**
 * Chat Input -> Agent <- one component in tool mode -> Chat Output: the shape of the starters that hand a service
 * to an agent, for tests that script the model's tool calls and read back what the tool answered.
 */
import type { RecordedRequest } from './model-server.js';
import { edge, flow, node } from './langflow-json.js';
import { keyVariable } from './model-flows.js';

export const AGENT_ID = 'Agent-agent1';

/** `toolOutput` is the tool node's output wired to the agent: `component_as_tool` for most, `tool` for Apify. */
export function agentToolFlow(name: string, toolNode: { id: string; type: string; template: Record<string, unknown> }, modelBaseURL: string, toolOutput = 'component_as_tool') {
  const agentTemplate = { agent_llm: 'OpenAI', model_name: 'gpt-4o-mini', api_key: keyVariable(), openai_api_base: modelBaseURL, add_current_date_tool: false, system_prompt: 'Use your tools.' };
  return flow(
    name,
    [node('ChatInput-in001', 'ChatInput', {}, 'Chat Input'), node(toolNode.id, toolNode.type, toolNode.template), node(AGENT_ID, 'Agent', agentTemplate, 'Agent'), node('ChatOutput-out01', 'ChatOutput', {}, 'Chat Output')],
    [edge('ChatInput-in001', 'message', AGENT_ID, 'input_value'), edge(toolNode.id, toolOutput, AGENT_ID, 'tools'), edge(AGENT_ID, 'response', 'ChatOutput-out01', 'input_value')],
  );
}

/** The content of the tool message the model was sent back (the tool's result, or its error). */
export const toolMessageOf = (request: RecordedRequest): string => {
  const message = request.body.messages.find((m: { role: string }) => m.role === 'tool');
  return typeof message?.content === 'string' ? message.content : JSON.stringify(message?.content ?? null);
};

/** A scripted second model turn that repeats the tool's answer, so the run's reply shows what the model saw. */
export const repeatToolResult = (request: RecordedRequest) => ({ text: `Tool said: ${toolMessageOf(request)}` });
