/** Embedding Model (Langflow 1.7+): the unified embedding field, resolved like the model field (embedding-resolution.ts). */
import { z } from 'zod';
import { defineComponent, type FieldSpec } from '../contract.js';
import { bool, dict, float, int, secret, str, text } from '../fields.js';
import { embeddingsOf, timeoutMs } from './embeddings-of.js';

/** ModelInput of the embedding kind: `[{name, provider, metadata}]`, a name, or empty (the default model). */
const embeddingModelField: FieldSpec<unknown> = { schema: z.unknown(), type: 'model', inputClass: 'ModelInput', accepts: 'any', inputTypes: ['Embeddings'], displayName: 'Embedding Model', info: 'Select your model provider', required: true, value: [] };

export const embeddingModel = defineComponent({
  type: 'EmbeddingModel',
  version: 1,
  displayName: 'Embedding Model',
  description: 'Generate embeddings using a specified provider.',
  category: 'models',
  icon: 'binary',
  fields: {
    model: embeddingModelField,
    model_name: str({ displayName: 'Model Name Override', advanced: true }),
    provider: str({ displayName: 'Provider Override', advanced: true }),
    api_key: secret({ displayName: 'API Key', info: 'Overrides global provider settings. Leave blank to use your pre-configured API Key.', advanced: true }),
    api_base: text({ displayName: 'API Base URL', info: 'Base URL for the API. Leave empty for default.', advanced: true }),
    base_url_ibm_watsonx: str({ displayName: 'watsonx API Endpoint', show: false }),
    project_id: text({ displayName: 'Project ID', show: false }),
    ollama_base_url: str({ displayName: 'Ollama API URL', show: false }),
    dimensions: int({ displayName: 'Dimensions', info: 'The number of dimensions the resulting output embeddings should have. Only supported by certain models.', advanced: true }),
    chunk_size: int({ displayName: 'Chunk Size', advanced: true, value: 1000 }),
    request_timeout: float({ displayName: 'Request Timeout', advanced: true }),
    max_retries: int({ displayName: 'Max Retries', advanced: true, value: 3 }),
    show_progress_bar: bool({ displayName: 'Show Progress Bar', advanced: true }),
    model_kwargs: dict({ displayName: 'Model Kwargs', advanced: true }),
    truncate_input_tokens: int({ displayName: 'Truncate Input Tokens', advanced: true, show: false, value: 200 }),
    input_text: bool({ displayName: 'Include the original text in the output', advanced: true, show: false, value: true }),
  },
  outputs: [{ name: 'embeddings', displayName: 'Embedding Model', types: ['Embeddings'], method: 'build_embeddings' }],
  async run(inputs, ctx) {
    const ollama = /ollama/i.test(inputs.provider) || (Array.isArray(inputs.model) && /ollama/i.test(String((inputs.model[0] as { provider?: unknown })?.provider ?? '')));
    const embeddings = await embeddingsOf(
      {
        model: inputs.model,
        modelName: inputs.model_name,
        provider: inputs.provider,
        apiKey: inputs.api_key,
        baseURL: (ollama ? inputs.ollama_base_url : '') || inputs.api_base,
        dimensions: inputs.dimensions,
        batchSize: inputs.chunk_size,
        timeoutMs: timeoutMs(inputs.request_timeout),
        maxRetries: inputs.max_retries,
      },
      ctx,
    );
    return { embeddings };
  },
});
