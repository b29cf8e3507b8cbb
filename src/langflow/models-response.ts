/**
 * Our model catalog (src/components/models/model-catalog.ts) in the shapes of Langflow's Models API: providers with
 * their models and metadata (`GET /api/v1/models`), and each model's enabled status (`GET .../enabled_models`).
 */
import type { z } from 'zod';
import type { ModelListQuery, ProviderModels } from '../../protocol/models.schema.js';
import { DEFAULTS_PER_PROVIDER, MODEL_CATALOG, type CatalogModel, type CatalogProvider } from '../components/models/model-catalog.js';

type ProviderModelsBody = z.infer<typeof ProviderModels>;
type Metadata = ProviderModelsBody['models'][number]['metadata'];

/** The caller's model choices: which providers are enabled, which models were turned off or on one by one. */
export interface ModelStatus {
  enabledProviders: ReadonlySet<string>;
  disabled: ReadonlySet<string>;
  explicitlyEnabled: ReadonlySet<string>;
}

const FLAGS = ['tool_calling', 'reasoning', 'search', 'preview', 'deprecated', 'not_supported'] as const;

/** Each provider's models with Langflow's metadata; the first five usable ones of each type are its defaults. */
function detailed(entry: CatalogProvider): { model: CatalogModel; metadata: Metadata }[] {
  const rank = new Map<string, number>();
  return entry.models.map((model) => {
    const usable = !model.deprecated && !model.not_supported;
    const index = usable ? (rank.get(model.type) ?? 0) : DEFAULTS_PER_PROVIDER;
    if (usable) rank.set(model.type, index + 1);
    const { name: _name, type, ...flags } = model;
    return { model, metadata: { icon: entry.icon, ...flags, default: index < DEFAULTS_PER_PROVIDER, model_type: type } };
  });
}

const providerVariables = (entry: CatalogProvider) => [
  { variable_name: entry.provider === 'Ollama' ? 'Ollama Base URL' : `${entry.provider} API Key`, variable_key: entry.variable, required: true, is_secret: entry.provider !== 'Ollama', is_list: false, options: [] },
];

/** `GET /api/v1/models`: filtered as Langflow filters, the provider of the caller's default first, then enabled ones. */
export function providerModels(query: ModelListQuery, status: ModelStatus, defaultProvider?: string): ProviderModelsBody[] {
  const bodies: ProviderModelsBody[] = [];
  for (const entry of MODEL_CATALOG) {
    if (query.provider?.length && !query.provider.includes(entry.name)) continue;
    const models = detailed(entry)
      .filter(({ model, metadata }) => matches(query, model, metadata))
      .map(({ model, metadata }) => ({ model_name: model.name, metadata }));
    if (models.length === 0) continue;
    bodies.push({
      icon: entry.icon,
      variables: providerVariables(entry),
      api_docs_url: entry.docsUrl,
      mapping: { model_class: entry.modelClass, model_param: 'model' },
      provider: entry.name,
      models,
      num_models: models.length,
      is_enabled: status.enabledProviders.has(entry.name),
    });
  }
  const rank = (body: ProviderModelsBody) => [body.provider === defaultProvider ? 0 : 1, body.is_enabled ? 0 : 1] as const;
  return bodies.sort((a, b) => rank(a)[0] - rank(b)[0] || rank(a)[1] - rank(b)[1] || a.provider.localeCompare(b.provider));
}

function matches(query: ModelListQuery, model: CatalogModel, metadata: Metadata): boolean {
  if (!query.include_unsupported && model.not_supported) return false;
  if (!query.include_deprecated && model.deprecated) return false;
  if (query.model_name !== undefined && model.name !== query.model_name) return false;
  if (query.model_type !== undefined && metadata.model_type !== catalogType(query.model_type)) return false;
  return FLAGS.every((flag) => query[flag] === undefined || model[flag] === query[flag]);
}

/** Langflow's list takes `llm`/`embeddings`; its default-model endpoints `language`/`embedding`: either is read. */
const catalogType = (value: string) => (value === 'language' ? 'llm' : value === 'embedding' ? 'embeddings' : value);

/** `GET /api/v1/models/enabled_models`: per provider, per model, whether the caller's pickers offer it. */
export function enabledModels(status: ModelStatus, only?: readonly string[]): Record<string, Record<string, boolean>> {
  const result: Record<string, Record<string, boolean>> = {};
  for (const entry of MODEL_CATALOG) {
    const models: Record<string, boolean> = {};
    for (const { model, metadata } of detailed(entry)) {
      if (only?.length && !only.includes(model.name)) continue;
      const chosen = metadata.default || status.explicitlyEnabled.has(model.name);
      models[model.name] = status.enabledProviders.has(entry.name) && !model.deprecated && !model.not_supported && chosen && !status.disabled.has(model.name);
    }
    if (!only?.length || Object.keys(models).length > 0) result[entry.name] = models;
  }
  return result;
}

/** Which of the models Langflow calls defaults this is, so that turning one on is not stored as an exception. */
export function isCatalogDefault(modelName: string): boolean {
  return MODEL_CATALOG.some((entry) => detailed(entry).some(({ model, metadata }) => model.name === modelName && metadata.default));
}
