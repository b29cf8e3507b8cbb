/**
 * The models this service can call, by provider: what Langflow's Models API lists (src/langflow/models-response.ts)
 * and where an empty model field finds its default (default-model.ts). Only providers the model components can
 * reach are listed. A provider is enabled for a caller when the variable named here resolves for that caller's runs
 * (its key; Ollama's base URL, since it needs no key).
 */
import type { ModelProvider } from '../../values/language-model.js';
import { ANTHROPIC_MODELS, GOOGLE_MODELS, OPENAI_MODELS } from './model-names.js';

/** Langflow's `model_type` values in the catalog. */
export type CatalogModelType = 'llm' | 'embeddings';

/** What a model field is for: Langflow's ModelInput `model_type` (`language`, `embedding`). */
export type ModelKind = 'language' | 'embedding';

export const catalogTypeOf = (kind: ModelKind): CatalogModelType => (kind === 'embedding' ? 'embeddings' : 'llm');

export interface CatalogModel {
  name: string;
  type: CatalogModelType;
  tool_calling: boolean;
  reasoning: boolean;
  search: boolean;
  preview: boolean;
  not_supported: boolean;
  deprecated: boolean;
}

export interface CatalogProvider {
  /** Langflow's provider name ("Google Generative AI"), as the Models API and model fields name it. */
  name: string;
  /** The provider the model components call. */
  provider: ModelProvider;
  icon: string;
  /** The variable whose presence enables the provider (Langflow's provider-variable mapping). */
  variable: string;
  /** Langflow's LangChain class for this provider, which a model option's metadata names. */
  modelClass: string;
  docsUrl: string;
  /** In the provider's order of preference: its first model of a type is its default of that type. */
  models: readonly CatalogModel[];
}

type Flags = Partial<Omit<CatalogModel, 'name' | 'type'>>;

const model = (name: string, type: CatalogModelType, flags: Flags = {}): CatalogModel => ({
  name,
  type,
  tool_calling: false,
  reasoning: false,
  search: false,
  preview: false,
  not_supported: false,
  deprecated: false,
  ...flags,
});

/** OpenAI's names as our dropdowns offer them, flagged the way Langflow's catalog flags them. */
function openaiModel(name: string): CatalogModel {
  const reasoning = /^(o\d|gpt-5)/.test(name);
  return model(name, 'llm', { tool_calling: name !== 'gpt-5-chat-latest', reasoning, deprecated: name === 'gpt-3.5-turbo' || name === 'gpt-4-turbo-preview' });
}

const embeddings = (...names: string[]) => names.map((name) => model(name, 'embeddings'));

export const MODEL_CATALOG: readonly CatalogProvider[] = [
  {
    name: 'OpenAI',
    provider: 'OpenAI',
    icon: 'OpenAI',
    variable: 'OPENAI_API_KEY',
    modelClass: 'ChatOpenAI',
    docsUrl: 'https://platform.openai.com/docs/overview',
    models: [...OPENAI_MODELS.map(openaiModel), ...embeddings('text-embedding-3-small', 'text-embedding-3-large', 'text-embedding-ada-002')],
  },
  {
    name: 'Anthropic',
    provider: 'Anthropic',
    icon: 'Anthropic',
    variable: 'ANTHROPIC_API_KEY',
    modelClass: 'ChatAnthropic',
    docsUrl: 'https://console.anthropic.com/docs',
    models: ANTHROPIC_MODELS.map((name) => model(name, 'llm', { tool_calling: true, reasoning: /opus-4|sonnet-4|3-7/.test(name) })),
  },
  {
    name: 'Google Generative AI',
    provider: 'Google',
    icon: 'GoogleGenerativeAI',
    variable: 'GOOGLE_API_KEY',
    modelClass: 'ChatGoogleGenerativeAIFixed',
    docsUrl: 'https://aistudio.google.com/app/apikey',
    models: [...[...GOOGLE_MODELS].reverse().map((name) => model(name, 'llm', { tool_calling: true, reasoning: name.startsWith('gemini-2.5') })), ...embeddings('text-embedding-004')],
  },
  {
    name: 'Ollama',
    provider: 'Ollama',
    icon: 'Ollama',
    variable: 'OLLAMA_BASE_URL',
    modelClass: 'ChatOllama',
    docsUrl: 'https://ollama.com/',
    models: [
      ...['llama3.2', 'llama3.1', 'qwen2.5', 'mistral'].map((name) => model(name, 'llm', { tool_calling: true })),
      ...embeddings('nomic-embed-text', 'mxbai-embed-large', 'all-minilm'),
    ],
  },
];

/** How many models of a type Langflow marks as a provider's defaults (enabled without being picked one by one). */
export const DEFAULTS_PER_PROVIDER = 5;

/** Langflow's or our own provider name, any case ("openai", "Google Generative AI", "google"), to its entry. */
export function catalogProvider(name: string): CatalogProvider | undefined {
  const key = name.trim().toLowerCase();
  return MODEL_CATALOG.find((entry) => entry.name.toLowerCase() === key || entry.provider.toLowerCase() === key);
}

/** The provider's usable models of a type, in its order of preference (deprecated and unsupported ones left out). */
export const usableModels = (entry: CatalogProvider, type: CatalogModelType): CatalogModel[] =>
  entry.models.filter((m) => m.type === type && !m.deprecated && !m.not_supported);
