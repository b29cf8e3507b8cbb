/**
 * Langflow 1.7+ picks a model with one `model` field (ModelInput): `[{name, provider, metadata}]` from the
 * editor, or a LanguageModel through an edge. The current starters ship it empty (`""` or `[]`): such a field takes
 * the caller's default model (default-model.ts), or fails saying what to set.
 */
import { isLanguageModel, type LanguageModelValue, type ModelProvider } from '../../values/language-model.js';
import { ComponentError } from '../component.error.js';
import type { ComponentContext } from '../contract.js';
import { defaultModel } from './default-model.js';
import type { ModelKind } from './model-catalog.js';
import { PROVIDERS } from './providers.js';

export interface ModelChoice {
  provider: ModelProvider;
  model: string;
}

/** True when the node uses the 1.7+ `model` field at all (a 1.6 node has no such field). */
export const usesModelField = (value: unknown): boolean => value !== undefined && value !== null;

const isEmptySelection = (value: unknown): boolean => {
  const entry: unknown = Array.isArray(value) ? value[0] : value;
  return entry === undefined || entry === null || entry === '';
};

/** The model a `model` field picks; an empty one takes the caller's default model of its kind. */
export async function resolveModelField(
  value: unknown,
  field: { name: string; displayName: string },
  ctx: Pick<ComponentContext, 'variable' | 'models'>,
  kind: ModelKind = 'language',
): Promise<ModelChoice | LanguageModelValue> {
  if (!isLanguageModel(value) && isEmptySelection(value)) return defaultModel(kind, ctx, `The "${field.displayName}" field (${field.name})`);
  return modelChoice(value, field);
}

/** The chosen model, or the connected LanguageModel; a clear error naming the field when nothing is chosen. */
export function modelChoice(value: unknown, field: { name: string; displayName: string }): ModelChoice | LanguageModelValue {
  if (isLanguageModel(value)) return value;
  const entry: unknown = Array.isArray(value) ? value[0] : value;
  if (isEmptySelection(value)) {
    throw new ComponentError(`A model selection is required: choose a model in the "${field.displayName}" field (${field.name}), or connect a Language Model to it.`);
  }
  if (typeof entry === 'string') return { provider: 'OpenAI', model: entry };
  if (typeof entry !== 'object') throw new ComponentError(`Field "${field.displayName}" (${field.name}) must hold a model selection, got ${typeof entry}.`);
  const { name, provider, metadata } = entry as { name?: unknown; provider?: unknown; metadata?: { model_class?: unknown } };
  if (typeof name !== 'string' || name === '') throw new ComponentError(`The model selected in "${field.displayName}" (${field.name}) has no name.`);
  return { provider: providerOf(String(provider ?? ''), String(metadata?.model_class ?? ''), field.name), model: name };
}

/**
 * The provider a node's stored selection names (its `model` field, else its provider field), read ahead of any
 * run to know what the node will load; undefined when the node names none or an unsupported one (the run says so).
 */
export function selectedProvider(model: unknown, provider?: unknown): ModelProvider | undefined {
  try {
    if (usesModelField(model)) return modelChoice(model, { name: 'model', displayName: 'Language Model' }).provider;
    return typeof provider === 'string' && provider ? providerOf(provider) : undefined;
  } catch {
    return undefined;
  }
}

/** Langflow's provider names ("OpenAI", "Google Generative AI", ...) or its LangChain class names. */
export function providerOf(provider: string, modelClass = '', fieldName = 'provider'): ModelProvider {
  const key = `${provider} ${modelClass}`.toLowerCase();
  if (key.includes('openai')) return 'OpenAI';
  if (key.includes('anthropic')) return 'Anthropic';
  if (key.includes('google')) return 'Google';
  if (key.includes('ollama')) return 'Ollama';
  throw new ComponentError(`Model provider "${provider || modelClass}" is not supported (${fieldName}); supported: ${Object.keys(PROVIDERS).join(', ')}.`);
}

/**
 * The API key: the node's own value, else the provider's global variable (OPENAI_API_KEY, ...). Ollama needs none.
 * Missing keys fail with Langflow's wording, naming the field.
 */
export async function apiKeyFor(provider: ModelProvider, given: string, ctx: ComponentContext, field = 'api_key'): Promise<string> {
  if (given) return given;
  const variable = PROVIDERS[provider].keyVariable;
  if (!variable) return '';
  const fromVariable = await ctx.variable(variable).catch(() => '');
  if (fromVariable) return fromVariable;
  throw new ComponentError(`${provider} API key is required when using ${provider} provider: set the "${field}" field or the ${variable} global variable.`);
}
