/** OpenAI (Langflow's OpenAIModel): chat completions at `openai_api_base`, else OPENAI_BASE_URL, else OpenAI. */
import { ComponentError } from '../component.error.js';
import { defineComponent } from '../contract.js';
import { bool, dict, int, secret, str } from '../fields.js';
import { baseModelFields, MODEL_OUTPUTS, modelOutputs } from './model-component.js';
import { slider } from './model-fields.js';
import { OPENAI_MODELS } from './model-names.js';
import { apiKeyFor } from './model-selection.js';
import { createLanguageModel, resolveBaseURL, sdkModules } from './providers.js';

export const openaiModel = defineComponent({
  type: 'OpenAIModel',
  version: 1,
  displayName: 'OpenAI',
  description: 'Generates text using OpenAI LLMs.',
  category: 'openai',
  icon: 'OpenAI',
  fields: {
    ...baseModelFields(),
    max_tokens: int({ displayName: 'Max Tokens', info: 'The maximum number of tokens to generate. Set to 0 for unlimited tokens.', advanced: true, min: 0 }),
    model_kwargs: dict({ displayName: 'Model Kwargs', info: 'Additional keyword arguments to pass to the model.', advanced: true }),
    json_mode: bool({ displayName: 'JSON Mode', info: 'If True, it will output JSON regardless of passing a schema.', advanced: true }),
    model_name: str({ displayName: 'Model Name', options: OPENAI_MODELS, value: 'gpt-4o-mini' }),
    openai_api_base: str({ displayName: 'OpenAI API Base', info: 'The base URL of the OpenAI API. Defaults to https://api.openai.com/v1. You can change this to use other APIs like JinaChat, LocalAI and Prem.', advanced: true }),
    api_key: secret({ displayName: 'OpenAI API Key', info: 'The OpenAI API Key to use for the OpenAI model.', value: 'OPENAI_API_KEY', required: true }),
    temperature: slider({ displayName: 'Temperature', value: 0.1, min: 0, max: 2 }),
    seed: int({ displayName: 'Seed', info: 'The seed controls the reproducibility of the job.', advanced: true, value: 1 }),
    max_retries: int({ displayName: 'Max Retries', info: 'The maximum number of retries to make when generating.', advanced: true, value: 5, min: 0 }),
    timeout: int({ displayName: 'Timeout', info: 'The timeout for requests to OpenAI completion API.', advanced: true, value: 700, min: 0 }),
  },
  outputs: MODEL_OUTPUTS,
  // JSON mode goes through the AI SDK (generateObject); plain calls use our own chat-completions client.
  heavyModules: (params) => (params.json_mode === true ? sdkModules('OpenAI') : []),
  run: (inputs, ctx) =>
    modelOutputs(
      async () => {
        if (!inputs.model_name) throw new ComponentError('Field "Model Name" (model_name) is empty: choose a model.');
        if (Object.keys(inputs.model_kwargs).length > 0) ctx.logger.warn({ vertex: ctx.run.vertexId }, 'OpenAI model_kwargs are not passed on by this service');
        return createLanguageModel({
          provider: 'OpenAI',
          model: inputs.model_name,
          apiKey: await apiKeyFor('OpenAI', inputs.api_key, ctx),
          baseURL: resolveBaseURL('OpenAI', inputs.openai_api_base),
          settings: { temperature: inputs.temperature, seed: inputs.seed, maxRetries: inputs.max_retries, maxOutputTokens: inputs.max_tokens || undefined },
          timeoutMs: inputs.timeout * 1000,
          jsonMode: inputs.json_mode,
        });
      },
      inputs,
      ctx,
    ),
});
