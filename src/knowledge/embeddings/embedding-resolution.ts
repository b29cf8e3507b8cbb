/**
 * The embedding side of the unified model field: which provider, model, base URL and key an embedding field means.
 * Every embedding user goes through `resolveEmbeddings` (the EmbeddingModel, OpenAIEmbeddings and OllamaEmbeddings
 * nodes, a knowledge base's ingestion and retrieval), so this is the one seam to point at the shared model
 * resolution of the Models API: an empty field takes the caller's default embedding model (default-model.ts).
 * Keys are found as the language models find theirs: the node's own value, else the provider's global variable,
 * read through `variable` (request `X-LANGFLOW-GLOBAL-VAR-*` headers, the user's variables, then the environment
 * when FLOWSVC_FALLBACK_TO_ENV_VAR allows); base URLs from the node, else `<PROVIDER>_BASE_URL`, else the default.
 */
import { ComponentError } from '../../components/component.error.js';
import { PROVIDERS, resolveBaseURL } from '../../components/models/providers.js';
import { defaultModel } from '../../components/models/default-model.js';
import { providerOf } from '../../components/models/model-selection.js';
import type { ModelProvider } from '../../values/language-model.js';
import type { EmbeddingsTarget } from './embeddings-client.js';

/** Providers whose OpenAI-compatible API serves `/embeddings`. */
const EMBEDDING_PROVIDERS: readonly ModelProvider[] = ['OpenAI', 'Ollama', 'Google'];

export interface EmbeddingSelection {
  /** The unified field: `[{name, provider, metadata}]` from the editor, a model name, or empty. */
  model?: unknown;
  /** Overrides of the selection (EmbeddingModel's "Model Name Override" and "Provider Override"). */
  modelName?: string;
  provider?: string;
  /** The node's key, already read from its variable when the field names one; empty: the provider's variable. */
  apiKey?: string;
  baseURL?: string;
  dimensions?: number;
  batchSize?: number;
  timeoutMs?: number;
  maxRetries?: number;
}

export interface EmbeddingDefaults {
  /** `provider/model` (FLOWSVC_DEFAULT_EMBEDDING_MODEL) for an empty field. */
  defaultEmbeddingModel?: string;
}

export type VariableLookup = (name: string) => Promise<string>;

const FIELD = { name: 'model', displayName: 'Embedding Model' };

export async function resolveEmbeddings(selection: EmbeddingSelection, variable: VariableLookup, defaults: EmbeddingDefaults = {}, field = FIELD): Promise<EmbeddingsTarget> {
  const chosen = chosenModel(selection, field) ?? (await defaultChoice(variable, defaults, field));
  const provider = embeddingProvider(chosen.provider, field);
  const apiKey = selection.apiKey || (await keyOf(provider, variable));
  return {
    provider,
    model: chosen.model,
    baseURL: resolveBaseURL(provider, selection.baseURL),
    apiKey,
    dimensions: selection.dimensions || undefined,
    batchSize: selection.batchSize,
    timeoutMs: selection.timeoutMs,
    maxRetries: selection.maxRetries,
  };
}

interface Chosen {
  provider: string;
  model: string;
}

function chosenModel(selection: EmbeddingSelection, field: typeof FIELD): Chosen | undefined {
  const entry: unknown = Array.isArray(selection.model) ? selection.model[0] : selection.model;
  let chosen: Chosen | undefined;
  if (typeof entry === 'string' && entry.trim()) chosen = splitModel(entry.trim()) ?? { provider: 'OpenAI', model: entry.trim() };
  else if (entry && typeof entry === 'object') {
    const { name, provider } = entry as { name?: unknown; provider?: unknown };
    if (typeof name !== 'string' || !name) throw new ComponentError(`The model selected in "${field.displayName}" (${field.name}) has no name.`);
    chosen = { provider: typeof provider === 'string' && provider ? provider : 'OpenAI', model: name };
  }
  if (selection.modelName?.trim()) chosen = { provider: selection.provider?.trim() || chosen?.provider || 'OpenAI', model: selection.modelName.trim() };
  else if (chosen && selection.provider?.trim()) chosen = { ...chosen, provider: selection.provider.trim() };
  return chosen;
}

/** `openai/text-embedding-3-small`, `ollama/nomic-embed-text`. */
function splitModel(value: string): Chosen | undefined {
  const slash = value.indexOf('/');
  if (slash <= 0) return undefined;
  const provider = value.slice(0, slash);
  return EMBEDDING_PROVIDERS.some((p) => p.toLowerCase() === provider.toLowerCase()) ? { provider, model: value.slice(slash + 1) } : undefined;
}

/** An empty field takes the caller's default embedding model, resolved as every model field's default is. */
async function defaultChoice(variable: VariableLookup, defaults: EmbeddingDefaults, field: typeof FIELD): Promise<Chosen> {
  const chosen = await defaultModel('embedding', { variable, models: { embedding: defaults.defaultEmbeddingModel } }, `${field.displayName} (${field.name})`);
  return { provider: chosen.provider, model: chosen.model };
}

function embeddingProvider(name: string, field: typeof FIELD): ModelProvider {
  const provider = providerOf(name, '', field.name);
  if (!EMBEDDING_PROVIDERS.includes(provider)) throw new ComponentError(`${provider} has no embedding models here; embedding providers: ${EMBEDDING_PROVIDERS.join(', ')}.`);
  return provider;
}

async function keyOf(provider: ModelProvider, variable: VariableLookup): Promise<string> {
  const name = PROVIDERS[provider].keyVariable;
  if (!name) return '';
  const key = await variable(name).catch(() => '');
  if (key) return key;
  throw new ComponentError(`${provider} API key is required for ${provider} embeddings: set the "api_key" field or the ${name} global variable.`);
}
