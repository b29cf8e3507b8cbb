/**
 * Language Model (Langflow's LanguageModelComponent): one node for several providers. 1.6 nodes pick the model
 * with `provider` + `model_name`; 1.7+ nodes with one `model` field (ModelInput), which wins when present.
 */
import { isLanguageModel, type LanguageModelValue } from '../../values/language-model.js';
import { ComponentError } from '../component.error.js';
import { defineComponent, type ComponentContext } from '../contract.js';
import { secret, str, text } from '../fields.js';
import { baseModelFields, MODEL_OUTPUTS, modelOutputs } from './model-component.js';
import { modelInput, slider } from './model-fields.js';
import { OPENAI_MODELS } from './model-names.js';
import { apiKeyFor, providerOf, resolveModelField, selectedProvider, usesModelField } from './model-selection.js';
import { createLanguageModel, resolveBaseURL, sdkModules } from './providers.js';

const { input_value, system_message, stream } = baseModelFields();

export const languageModel = defineComponent({
  type: 'LanguageModelComponent',
  version: 1,
  displayName: 'Language Model',
  description: 'Runs a language model given a specified provider.',
  category: 'models',
  icon: 'brain-circuit',
  fields: {
    provider: str({ displayName: 'Model Provider', info: 'Select the model provider', options: ['OpenAI', 'Anthropic', 'Google'], value: 'OpenAI' }),
    model_name: str({ displayName: 'Model Name', info: 'Select the model to use', options: OPENAI_MODELS, value: 'gpt-4o-mini' }),
    api_key: secret({ displayName: 'OpenAI API Key', info: 'Model Provider API key', value: 'OPENAI_API_KEY' }),
    input_value,
    system_message,
    stream,
    temperature: slider({ displayName: 'Temperature', info: 'Controls randomness in responses', value: 0.1, min: 0, max: 1, advanced: true }),
    // Langflow 1.7+: one model picker instead of provider + model_name (hidden in the 1.6-style editor).
    model: modelInput({ displayName: 'Language Model', info: 'Select your model provider', show: false }),
    ollama_base_url: text({ displayName: 'Ollama API URL', info: 'Endpoint of the Ollama API (Ollama only). Defaults to http://localhost:11434', show: false }),
  },
  outputs: MODEL_OUTPUTS,
  run: (inputs, ctx) => modelOutputs(() => buildModel(inputs, ctx), inputs, ctx),
  // Only Anthropic goes through the AI SDK: the other providers' calls use our own chat-completions client.
  heavyModules: (params) => (selectedProvider(params.model, params.provider ?? 'OpenAI') === 'Anthropic' ? sdkModules('Anthropic') : []),
});

type Inputs = { provider: string; model_name: string; api_key: string; temperature: number; model: unknown; ollama_base_url: string };

async function buildModel(inputs: Inputs, ctx: ComponentContext): Promise<LanguageModelValue> {
  const choice = usesModelField(inputs.model)
    ? await resolveModelField(inputs.model, { name: 'model', displayName: 'Language Model' }, ctx)
    : { provider: providerOf(inputs.provider), model: inputs.model_name };
  if (isLanguageModel(choice)) return choice;
  if (!choice.model) throw new ComponentError('Field "Model Name" (model_name) is empty: choose a model.');
  const apiKey = await apiKeyFor(choice.provider, inputs.api_key, ctx);
  return createLanguageModel({
    provider: choice.provider,
    model: choice.model,
    apiKey,
    baseURL: resolveBaseURL(choice.provider, choice.provider === 'Ollama' ? inputs.ollama_base_url : undefined),
    settings: { temperature: inputs.temperature },
  });
}
