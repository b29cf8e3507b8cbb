/**
 * The chat-completions request body, field for field what the AI SDK's chat models sent for the same settings
 * (@ai-sdk/openai 2.x `OpenAIChatLanguageModel.getArgs`, @ai-sdk/openai-compatible 1.x for Google and Ollama), so
 * servers that worked (OpenAI, vLLM, Ollama, LM Studio, Google's OpenAI endpoint) keep working: the system message
 * first, `max_tokens`, `temperature`, `top_p`, `stop`, `seed`, and `stream: true` with
 * `stream_options.include_usage` when streaming (usage then comes in the last chunk). Unset settings are left
 * out. OpenAI's reasoning models get the SDK's adjustments (developer role, no temperature/top_p,
 * `max_completion_tokens`).
 */
import type { ModelCallSettings } from '../../../values/language-model.js';

export interface ChatTurn {
  role: 'system' | 'developer' | 'user' | 'assistant';
  content: string;
}

export interface ChatBodyInput {
  provider: string;
  model: string;
  system?: string;
  /** User and assistant turns, in order. */
  turns: readonly ChatTurn[];
  settings: ModelCallSettings;
  stream: boolean;
}

export function chatRequestBody(input: ChatBodyInput): Record<string, unknown> {
  const { settings } = input;
  const rules = input.provider === 'OpenAI' ? openaiRules(input.model) : NO_RULES;
  const messages: ChatTurn[] = [];
  if (input.system) messages.push({ role: rules.reasoning ? 'developer' : 'system', content: input.system });
  messages.push(...input.turns);
  const body: Record<string, unknown> = { model: input.model };
  if (settings.maxOutputTokens !== undefined) body[rules.reasoning ? 'max_completion_tokens' : 'max_tokens'] = settings.maxOutputTokens;
  if (settings.temperature !== undefined && !rules.reasoning && !rules.noTemperature) body.temperature = settings.temperature;
  if (settings.topP !== undefined && !rules.reasoning) body.top_p = settings.topP;
  if (settings.stopSequences !== undefined) body.stop = settings.stopSequences;
  if (settings.seed !== undefined) body.seed = settings.seed;
  body.messages = messages;
  if (input.stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  return body;
}

interface ModelRules {
  /** o-series and gpt-5+ (not gpt-N-chat): no sampling settings, `developer` system role, max_completion_tokens. */
  reasoning: boolean;
  /** The search-preview models refuse temperature. */
  noTemperature: boolean;
}

const NO_RULES: ModelRules = { reasoning: false, noTemperature: false };

/** The SDK's getOpenAILanguageModelCapabilities, reduced to what a plain text call uses. */
function openaiRules(model: string): ModelRules {
  const oSeries = /^o(\d+)(?:-|$)/.test(model);
  const gpt = /^gpt-(\d+)(?:\.(\d+))?(?:-(.+))?$/.exec(model);
  const gptChat = gpt !== null && gpt[2] === undefined && (gpt[3]?.startsWith('chat') ?? false);
  const reasoning = oSeries || (gpt !== null && Number(gpt[1]) >= 5 && !gptChat) || model === 'codex-mini-latest' || model === 'computer-use-preview';
  const noTemperature = model.startsWith('gpt-4o-search-preview') || model.startsWith('gpt-4o-mini-search-preview');
  return { reasoning, noTemperature };
}
