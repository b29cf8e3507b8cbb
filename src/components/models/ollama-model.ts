/**
 * Ollama (Langflow's OllamaModel), reached through Ollama's OpenAI-compatible API (`<base_url>/v1`): the node's
 * `base_url`, else OLLAMA_BASE_URL, else http://localhost:11434.
 */
import { ComponentError } from '../component.error.js';
import { defineComponent } from '../contract.js';
import { bool, float, int, str, text } from '../fields.js';
import { baseModelFields, MODEL_OUTPUTS, modelOutputs } from './model-component.js';
import { slider } from './model-fields.js';
import { createLanguageModel, resolveBaseURL } from './providers.js';

const { input_value, system_message, stream } = baseModelFields();

export const ollamaModel = defineComponent({
  type: 'OllamaModel',
  version: 1,
  displayName: 'Ollama',
  description: 'Generate text using Ollama Local LLMs.',
  category: 'ollama',
  icon: 'Ollama',
  fields: {
    base_url: text({ displayName: 'Base URL', info: 'Endpoint of the Ollama API.' }),
    model_name: str({ displayName: 'Model Name', info: 'Refer to https://ollama.com/library for more models.', options: [] }),
    temperature: slider({ displayName: 'Temperature', value: 0.1, min: 0, max: 1, advanced: true }),
    timeout: int({ displayName: 'Timeout', info: 'Timeout for the request stream.', advanced: true, min: 0 }),
    top_p: float({ displayName: 'Top P', info: 'Works together with top-k. (Default: 0.9)', advanced: true, min: 0, max: 1 }),
    stop_tokens: text({ displayName: 'Stop Tokens', info: 'Comma-separated list of tokens to signal the model to stop generating text.', advanced: true }),
    tool_model_enabled: bool({ displayName: 'Tool Model Enabled', info: 'Whether to enable tool calling in the model.', value: true }),
    input_value,
    system_message,
    stream,
  },
  outputs: MODEL_OUTPUTS,
  run: (inputs, ctx) =>
    modelOutputs(
      async () => {
        if (!inputs.model_name) throw new ComponentError('Field "Model Name" (model_name) is empty: choose an Ollama model.');
        const stop = inputs.stop_tokens.split(',').map((s) => s.trim()).filter(Boolean);
        return createLanguageModel({
          provider: 'Ollama',
          model: inputs.model_name,
          apiKey: '',
          baseURL: resolveBaseURL('Ollama', inputs.base_url),
          settings: { temperature: inputs.temperature || undefined, topP: inputs.top_p || undefined, stopSequences: stop.length ? stop : undefined },
          timeoutMs: inputs.timeout ? inputs.timeout * 1000 : undefined,
        });
      },
      inputs,
      ctx,
    ),
});
