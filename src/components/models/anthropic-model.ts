/** Anthropic (Langflow's AnthropicModel): the Messages API at `base_url`, else ANTHROPIC_BASE_URL, else Anthropic. */
import { ComponentError } from '../component.error.js';
import { defineComponent } from '../contract.js';
import { bool, int, secret, str, text } from '../fields.js';
import { baseModelFields, MODEL_OUTPUTS, modelOutputs } from './model-component.js';
import { slider } from './model-fields.js';
import { ANTHROPIC_MODELS } from './model-names.js';
import { apiKeyFor } from './model-selection.js';
import { createLanguageModel, resolveBaseURL, sdkModules } from './providers.js';

export const anthropicModel = defineComponent({
  type: 'AnthropicModel',
  version: 1,
  displayName: 'Anthropic',
  description: 'Generate text using Anthropic\'s Messages API and models.',
  category: 'anthropic',
  icon: 'Anthropic',
  fields: {
    ...baseModelFields(),
    max_tokens: int({ displayName: 'Max Tokens', info: 'The maximum number of tokens to generate. Set to 0 for unlimited tokens.', advanced: true, value: 4096, min: 0 }),
    model_name: str({ displayName: 'Model Name', options: ANTHROPIC_MODELS, value: ANTHROPIC_MODELS[0] }),
    api_key: secret({ displayName: 'Anthropic API Key', info: 'Your Anthropic API key.', required: true }),
    temperature: slider({ displayName: 'Temperature', info: 'Run inference with this temperature. Must by in the closed interval [0.0, 1.0].', value: 0.1, min: 0, max: 1, advanced: true }),
    base_url: text({ displayName: 'Anthropic API URL', info: 'Endpoint of the Anthropic API. Defaults to \'https://api.anthropic.com\' if not specified.', value: 'https://api.anthropic.com', advanced: true }),
    tool_model_enabled: bool({ displayName: 'Enable Tool Models', info: 'Select if you want to use models that can work with tools. If yes, only those models will be shown.', value: false }),
  },
  outputs: MODEL_OUTPUTS,
  heavyModules: () => sdkModules('Anthropic'),
  run: (inputs, ctx) =>
    modelOutputs(
      async () => {
        if (!inputs.model_name) throw new ComponentError('Field "Model Name" (model_name) is empty: choose a model.');
        return createLanguageModel({
          provider: 'Anthropic',
          model: inputs.model_name,
          apiKey: await apiKeyFor('Anthropic', inputs.api_key, ctx),
          baseURL: resolveBaseURL('Anthropic', baseURLField(inputs.base_url)),
          settings: { temperature: inputs.temperature, maxOutputTokens: inputs.max_tokens || 4096 },
        });
      },
      inputs,
      ctx,
    ),
});

/**
 * The field's default is Anthropic's public URL, so a node that kept it would never reach ANTHROPIC_BASE_URL;
 * the default counts as "not set" and the environment may override it.
 */
function baseURLField(value: string): string | undefined {
  const trimmed = value.trim().replace(/\/+$/, '');
  return trimmed === '' || trimmed === 'https://api.anthropic.com' ? undefined : trimmed;
}
