/**
 * Agent (Langflow's Agent): a tool-calling loop through the AI SDK. The model sees the agent instructions, the
 * session's recent history and the input; it may call the connected tools (components in tool mode, see
 * src/components/tools/tool-mode.ts) up to `max_iterations` model calls. Every call is recorded in the reply's
 * "Agent Steps" content block.
 */
import type { ToolSet } from 'ai';
import { aiSdk } from '../shared/heavy-modules.js';
import { z } from 'zod';
import { createMessage, isMessage, type MessageValue } from '../../values/message.js';
import { isTool, TOOL_NAME, type ToolValue } from '../../values/tool.js';
import { ComponentError } from '../component.error.js';
import { defineComponent, type ComponentContext } from '../contract.js';
import { bool, dict, handle, int, message, secret, str, text } from '../fields.js';
import { chatPrompt } from '../models/chat-prompt.js';
import { usageOf } from '../models/model-call.js';
import { modelInput, slider } from '../models/model-fields.js';
import { selectedProvider } from '../models/model-selection.js';
import { sdkModules } from '../models/providers.js';
import { OPENAI_MODELS } from '../models/model-names.js';
import { providerError } from '../models/provider-error.js';
import { currentDate } from '../helpers/current-date.js';
import { toolsOf } from '../tools/tool-mode.js';
import { agentModel } from './agent-model.js';
import { AgentSteps } from './agent-steps.js';

const STOPPED = 'Agent stopped due to iteration limit or time limit.';

export const agent = defineComponent({
  type: 'Agent',
  version: 1,
  displayName: 'Agent',
  description: 'Define the agent\'s instructions, then enter a task to complete using tools.',
  category: 'agents',
  icon: 'bot',
  fields: {
    // A provider name, or a connected LanguageModel ("Connect other models").
    agent_llm: { ...str({ displayName: 'Model Provider', info: 'The provider of the language model that the agent will use to generate responses.', options: ['Anthropic', 'Google Generative AI', 'OpenAI', 'Ollama'], value: 'OpenAI' }), schema: z.unknown().default('OpenAI'), accepts: 'any', inputTypes: [] },
    max_tokens: int({ displayName: 'Max Tokens', info: 'The maximum number of tokens to generate. Set to 0 for unlimited tokens.', advanced: true, min: 0 }),
    model_kwargs: dict({ displayName: 'Model Kwargs', info: 'Additional keyword arguments to pass to the model.', advanced: true }),
    model_name: str({ displayName: 'Model Name', options: OPENAI_MODELS, value: 'gpt-4o-mini' }),
    openai_api_base: str({ displayName: 'OpenAI API Base', info: 'The base URL of the OpenAI API. Defaults to https://api.openai.com/v1.', advanced: true }),
    api_key: secret({ displayName: 'OpenAI API Key', info: 'The OpenAI API Key to use for the OpenAI model.', value: 'OPENAI_API_KEY', required: true }),
    temperature: slider({ displayName: 'Temperature', value: 0.1, min: 0, max: 2, advanced: true }),
    seed: int({ displayName: 'Seed', info: 'The seed controls the reproducibility of the job.', advanced: true, value: 1 }),
    max_retries: int({ displayName: 'Max Retries', info: 'The maximum number of retries to make when generating.', advanced: true, value: 5, min: 0 }),
    timeout: int({ displayName: 'Timeout', info: 'The timeout for requests to OpenAI completion API.', advanced: true, value: 700, min: 0 }),
    system_prompt: text({ displayName: 'Agent Instructions', info: 'System Prompt: Initial instructions and context provided to guide the agent\'s behavior.', multiline: true, value: 'You are a helpful assistant that can use tools to answer questions and perform tasks.' }),
    n_messages: int({ displayName: 'Number of Chat History Messages', info: 'Number of chat history messages to retrieve.', advanced: true, value: 100, min: 0 }),
    input_value: message({ displayName: 'Input', info: 'The input provided by the user for the agent to process.', toolMode: true }),
    handle_parsing_errors: bool({ displayName: 'Handle Parse Errors', info: 'Should the Agent fix errors when reading user input for better processing?', advanced: true, value: true }),
    verbose: bool({ displayName: 'Verbose', advanced: true, value: true }),
    max_iterations: int({ displayName: 'Max Iterations', info: 'The maximum number of attempts the agent can make to complete its task before it stops.', advanced: true, value: 15, min: 1 }),
    tools: handle({ displayName: 'Tools', info: 'These are the tools that the agent can use to help with tasks.', inputTypes: ['Tool'], list: true }),
    agent_description: text({ displayName: 'Agent Description [Deprecated]', info: 'The description of the agent. This is only used when in Tool Mode.', advanced: true, value: 'A helpful assistant with access to the following tools:' }),
    add_current_date_tool: bool({ displayName: 'Current Date', info: 'If true, will add a tool to the agent that returns the current date.', advanced: true, value: true }),
    model: modelInput({ displayName: 'Language Model', info: 'Select your model provider', show: false }),
  },
  outputs: [{ name: 'response', displayName: 'Response', types: ['Message'], method: 'message_response' }],
  // Always the AI SDK (tool calling); which provider's package depends on agent_llm or a connected model.
  heavyModules: (params) => sdkModules(selectedProvider(params.model, params.agent_llm)),
  async run(inputs, ctx) {
    const model = await agentModel(inputs, ctx);
    const input = isMessage(inputs.input_value) ? inputs.input_value : undefined;
    if (!input?.text) throw new ComponentError('The message you want to send to the agent is empty (input_value).');
    const tools = agentTools(inputs.tools, inputs.add_current_date_tool ? toolsOf(currentDate, { timezone: 'UTC' }, ctx) : []);
    const history = await recentHistory(ctx, inputs.n_messages, input);
    const steps = new AgentSteps(input.text);
    const { dynamicTool, generateText, jsonSchema, stepCountIs } = await aiSdk.load();
    const toolSet: ToolSet = Object.fromEntries(
      tools.map((t) => [
        t.name,
        dynamicTool({
          description: t.description,
          inputSchema: jsonSchema(t.parameters),
          execute: (args, { abortSignal }) => steps.call(t, (args ?? {}) as Record<string, unknown>, abortSignal ?? ctx.signal),
        }),
      ]),
    );
    try {
      const result = await generateText({
        model: await model.sdk(),
        ...chatPrompt(input, inputs.system_prompt, history),
        ...(tools.length > 0 ? { tools: toolSet } : {}),
        stopWhen: stepCountIs(inputs.max_iterations),
        ...model.settings,
        abortSignal: ctx.signal,
      });
      const text = result.finishReason === 'tool-calls' ? STOPPED : result.text;
      return {
        response: createMessage({
          text,
          sender: 'Machine',
          sender_name: 'Agent',
          session_id: ctx.run.sessionId,
          flow_id: ctx.run.flowId,
          properties: { source: { id: ctx.run.vertexId, display_name: ctx.run.displayName, source: model.model }, icon: 'Bot', state: 'complete', usage: usageOf(result.totalUsage) },
          content_blocks: [steps.block()],
        }),
      };
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      throw providerError(error, model);
    }
  },
});

/** The connected tools (single tools and toolkits), plus built-in ones; names must be valid and unique. */
function agentTools(connected: unknown, builtIn: ToolValue[]): ToolValue[] {
  const items = (Array.isArray(connected) ? connected.flat(2) : connected === undefined || connected === null || connected === '' ? [] : [connected]) as unknown[];
  const tools: ToolValue[] = [];
  for (const item of items) {
    if (!isTool(item)) throw new ComponentError('Every input of "Tools" (tools) must be a tool: connect components in Tool Mode.');
    tools.push(item);
  }
  // Langflow adds the Current Date component's tool unless one of that name is connected already.
  for (const tool of builtIn) if (!tools.some((t) => t.name === tool.name)) tools.push(tool);
  const seen = new Set<string>();
  for (const tool of tools) {
    if (!TOOL_NAME.test(tool.name)) throw new ComponentError(`Tool name "${tool.name}" is invalid (tools): use letters, digits, "_" and "-" only.`);
    if (seen.has(tool.name)) throw new ComponentError(`Two tools are named "${tool.name}" (tools): tool names must be unique.`);
    seen.add(tool.name);
  }
  return tools;
}

/** The session's last `limit` messages, without the current input and without error messages. */
async function recentHistory(ctx: ComponentContext, limit: number, input: MessageValue): Promise<MessageValue[]> {
  if (limit <= 0) return [];
  const recent = await ctx.memory.recent({ sessionId: input.session_id || ctx.run.sessionId, limit: limit + 1, order: 'ASC' });
  return recent.filter((m) => !m.error && m.id !== input.id).slice(-limit);
}
