/**
 * The Agent's model: a connected LanguageModel, the 1.7+ `model` picker, or the 1.6 provider dropdown
 * (`agent_llm`) with the provider fields Langflow shows under it (model name, key, OpenAI base URL, ...).
 */
import { isLanguageModel, type LanguageModelValue } from '../../values/language-model.js';
import { ComponentError } from '../component.error.js';
import type { ComponentContext } from '../contract.js';
import { apiKeyFor, providerOf, resolveModelField, usesModelField } from '../models/model-selection.js';
import { createLanguageModel, resolveBaseURL } from '../models/providers.js';

export interface AgentModelInputs {
  agent_llm: unknown;
  model: unknown;
  model_name: string;
  api_key: string;
  openai_api_base: string;
  temperature: number;
  max_tokens: number;
  seed: number;
  max_retries: number;
  timeout: number;
}

export async function agentModel(inputs: AgentModelInputs, ctx: ComponentContext): Promise<LanguageModelValue> {
  if (isLanguageModel(inputs.agent_llm)) return inputs.agent_llm;
  const choice = usesModelField(inputs.model)
    ? await resolveModelField(inputs.model, { name: 'model', displayName: 'Language Model' }, ctx)
    : { provider: providerFromDropdown(inputs.agent_llm), model: inputs.model_name };
  if (isLanguageModel(choice)) return choice;
  if (!choice.model) throw new ComponentError('Field "Model Name" (model_name) is empty: choose a model for the agent.');
  return createLanguageModel({
    provider: choice.provider,
    model: choice.model,
    apiKey: await apiKeyFor(choice.provider, inputs.api_key, ctx),
    baseURL: resolveBaseURL(choice.provider, choice.provider === 'OpenAI' ? inputs.openai_api_base : undefined),
    settings: { temperature: inputs.temperature, seed: inputs.seed, maxRetries: inputs.max_retries, maxOutputTokens: inputs.max_tokens || undefined },
    timeoutMs: inputs.timeout ? inputs.timeout * 1000 : undefined,
  });
}

function providerFromDropdown(value: unknown) {
  const name = typeof value === 'string' ? value.trim() : '';
  if (!name || name === 'Custom' || name === 'connect_other_models') {
    throw new ComponentError('A language model is required: choose a provider in "Model Provider" (agent_llm) or connect a Language Model to it.');
  }
  return providerOf(name, '', 'agent_llm');
}
