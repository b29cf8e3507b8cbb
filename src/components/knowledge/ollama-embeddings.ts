/** Ollama Embeddings: Ollama's OpenAI-compatible `/v1/embeddings` at the node's base URL (or OLLAMA_BASE_URL). */
import { defineComponent } from '../contract.js';
import { secret, str } from '../fields.js';
import { embeddingsOf } from './embeddings-of.js';

export const ollamaEmbeddings = defineComponent({
  type: 'OllamaEmbeddings',
  version: 1,
  displayName: 'Ollama Embeddings',
  description: 'Generate embeddings using Ollama models.',
  category: 'embeddings',
  icon: 'Ollama',
  fields: {
    model_name: { ...str({ displayName: 'Ollama Model', required: true, value: 'nomic-embed-text' }), inputClass: 'DropdownInput', options: ['nomic-embed-text', 'granite-embedding:latest', 'mxbai-embed-large', 'all-minilm'] },
    base_url: str({ displayName: 'Ollama Base URL', required: true, value: 'http://localhost:11434' }),
    api_key: secret({ displayName: 'Ollama API Key', advanced: true, loadFromDb: false }),
  },
  outputs: [{ name: 'embeddings', displayName: 'Embeddings', types: ['Embeddings'], method: 'build_embeddings' }],
  async run(inputs, ctx) {
    // A key only when the node has one: Ollama needs none, and no variable is looked up for it.
    const embeddings = await embeddingsOf({ model: inputs.model_name, provider: 'Ollama', apiKey: inputs.api_key || undefined, baseURL: inputs.base_url }, ctx);
    return { embeddings };
  },
});
