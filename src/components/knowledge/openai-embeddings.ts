/** OpenAI Embeddings: any OpenAI-compatible `/embeddings` API (OpenAI, LocalAI, vLLM, TEI) through `openai_api_base`. */
import { defineComponent } from '../contract.js';
import { bool, choice, dict, float, int, secret, text } from '../fields.js';
import { embeddingsOf, timeoutMs } from './embeddings-of.js';

const MODELS = ['text-embedding-3-small', 'text-embedding-3-large', 'text-embedding-ada-002'] as const;

export const openaiEmbeddings = defineComponent({
  type: 'OpenAIEmbeddings',
  version: 1,
  displayName: 'OpenAI Embeddings',
  description: 'Generate embeddings using OpenAI models.',
  category: 'embeddings',
  icon: 'OpenAI',
  fields: {
    default_headers: dict({ displayName: 'Default Headers', advanced: true }),
    default_query: dict({ displayName: 'Default Query', advanced: true }),
    chunk_size: int({ displayName: 'Chunk Size', advanced: true, value: 1000 }),
    client: text({ displayName: 'Client', advanced: true }),
    deployment: text({ displayName: 'Deployment', advanced: true }),
    embedding_ctx_length: int({ displayName: 'Embedding Context Length', advanced: true, value: 1536 }),
    max_retries: int({ displayName: 'Max Retries', advanced: true, value: 3 }),
    // Any model name an OpenAI-compatible server knows, not only OpenAI's own (a local server's).
    model: { ...choice({ displayName: 'Model', options: MODELS }), schema: choice({ displayName: 'Model', options: MODELS }).schema.or(text({ displayName: 'Model' }).schema) },
    model_kwargs: dict({ displayName: 'Model Kwargs', advanced: true }),
    openai_api_base: secret({ displayName: 'OpenAI API Base', advanced: true, loadFromDb: false }),
    openai_api_key: secret({ displayName: 'OpenAI API Key', value: 'OPENAI_API_KEY' }),
    openai_api_type: secret({ displayName: 'OpenAI API Type', advanced: true, loadFromDb: false }),
    openai_api_version: text({ displayName: 'OpenAI API Version', advanced: true }),
    openai_organization: text({ displayName: 'OpenAI Organization', advanced: true }),
    openai_proxy: text({ displayName: 'OpenAI Proxy', advanced: true }),
    request_timeout: float({ displayName: 'Request Timeout', advanced: true }),
    show_progress_bar: bool({ displayName: 'Show Progress Bar', advanced: true }),
    skip_empty: bool({ displayName: 'Skip Empty', advanced: true }),
    tiktoken_model_name: text({ displayName: 'TikToken Model Name', advanced: true }),
    tiktoken_enable: bool({ displayName: 'TikToken Enable', advanced: true, value: true }),
    dimensions: int({ displayName: 'Dimensions', info: 'The number of dimensions the resulting output embeddings should have. Only supported by certain models.', advanced: true }),
  },
  outputs: [{ name: 'embeddings', displayName: 'Embedding Model', types: ['Embeddings'], method: 'build_embeddings' }],
  async run(inputs, ctx) {
    const embeddings = await embeddingsOf(
      {
        model: inputs.model || MODELS[0],
        provider: 'OpenAI',
        apiKey: inputs.openai_api_key,
        baseURL: inputs.openai_api_base,
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
