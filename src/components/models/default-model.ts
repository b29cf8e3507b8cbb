/**
 * The model an empty model field takes (Langflow's current starters ship every `model` field empty and leave the
 * pick to the editor). In order: the caller's own default (Langflow's `__default_language_model__` /
 * `__default_embedding_model__` variable, set through `POST /api/v1/models/default_model`), the service's setting
 * (FLOWSVC_DEFAULT_MODEL, FLOWSVC_DEFAULT_EMBEDDING_MODEL), then the first enabled provider's default model. With
 * none, or with a default whose provider has no key for this caller, the run fails with a 400 naming what to set.
 * Any model field resolves through here: language models, agents, embeddings.
 */
import type { ModelProvider } from '../../values/language-model.js';
import { ModelNotConfiguredError } from '../../errors/model-not-configured.error.js';
import type { ComponentContext } from '../contract.js';
import { catalogProvider, catalogTypeOf, MODEL_CATALOG, usableModels, type CatalogProvider, type ModelKind } from './model-catalog.js';

export interface DefaultModel {
  provider: ModelProvider;
  model: string;
  /** Where it came from, for the log and for errors. */
  source: 'user default' | 'service setting' | 'first enabled provider';
}

/** Langflow's variables holding a user's default model, by kind. */
export const DEFAULT_MODEL_VARIABLES: Readonly<Record<ModelKind, string>> = {
  language: '__default_language_model__',
  embedding: '__default_embedding_model__',
};

/** Langflow's variable listing the models a user turned off (`POST /api/v1/models/enabled_models`). */
export const DISABLED_MODELS_VARIABLE = '__disabled_models__';

export const SETTING_OF: Readonly<Record<ModelKind, string>> = { language: 'FLOWSVC_DEFAULT_MODEL', embedding: 'FLOWSVC_DEFAULT_EMBEDDING_MODEL' };

/** `provider/model` (`openai/gpt-4o-mini`, `Google Generative AI/gemini-2.5-flash`), or why it is not one. */
export function parseModelSetting(value: string): { entry: CatalogProvider; model: string } | { error: string } {
  const slash = value.indexOf('/');
  const model = slash > 0 ? value.slice(slash + 1).trim() : '';
  if (!model) return { error: 'expected provider/model, for example openai/gpt-4o-mini' };
  const entry = catalogProvider(value.slice(0, slash));
  if (!entry) return { error: `unknown provider "${value.slice(0, slash)}"; one of ${MODEL_CATALOG.map((p) => p.provider.toLowerCase()).join(', ')}` };
  return { entry, model };
}

/** True when the variable resolves for this run (request, the caller's stored variables, the environment allowed). */
export const variableResolves = (ctx: Pick<ComponentContext, 'variable'>, name: string): Promise<boolean> =>
  ctx.variable(name).then(
    (value) => value !== '',
    () => false,
  );

export async function defaultModel(kind: ModelKind, ctx: Pick<ComponentContext, 'variable' | 'models'>, field: string): Promise<DefaultModel> {
  const chosen = (await userDefault(kind, ctx)) ?? settingDefault(kind, ctx);
  if (chosen) {
    const entry = catalogProvider(chosen.provider)!;
    if (!(await variableResolves(ctx, entry.variable))) {
      const from = chosen.source === 'user default' ? 'your default model' : SETTING_OF[kind];
      throw new ModelNotConfiguredError(`${field} is empty and takes ${from}, ${entry.name} ${chosen.model}, but ${entry.variable} is not set for you: ${howToSet(entry.variable)}, or choose a model in the field.`);
    }
    return chosen;
  }
  const type = catalogTypeOf(kind);
  const disabled = await disabledModels(ctx);
  for (const entry of MODEL_CATALOG) {
    const first = usableModels(entry, type).find((m) => !disabled.has(m.name));
    if (first && (await variableResolves(ctx, entry.variable))) return { provider: entry.provider, model: first.name, source: 'first enabled provider' };
  }
  throw new ModelNotConfiguredError(noDefaultAdvice(kind, field));
}

/** What the 400 of an empty model field without any default says: every way to fix it. */
export function noDefaultAdvice(kind: ModelKind, field: string): string {
  const variables = MODEL_CATALOG.filter((entry) => usableModels(entry, catalogTypeOf(kind)).length > 0).map((entry) => entry.variable);
  const example = kind === 'embedding' ? 'openai/text-embedding-3-small' : 'openai/gpt-4o-mini';
  return `${field} is empty and there is no default ${kind} model: choose a model in the field, set ${SETTING_OF[kind]} (for example ${example}), or enable a provider by setting one of ${variables.join(', ')} ${WHERE}.`;
}

const WHERE =
  "as a global variable or an X-FLOWSVC-GLOBAL-VAR-* request header, or in the service's environment (read for the superuser, and for every user with FLOWSVC_FALLBACK_TO_ENV_VAR=true)";
const howToSet = (name: string) => `set ${name} ${WHERE}`;

async function userDefault(kind: ModelKind, ctx: Pick<ComponentContext, 'variable'>): Promise<DefaultModel | undefined> {
  const raw = await ctx.variable(DEFAULT_MODEL_VARIABLES[kind]).catch(() => undefined);
  // A default that is not ours to read (a hand-made variable) is no default.
  const stored = (raw ? parseOr(raw, undefined) : undefined) as { provider?: unknown; model_name?: unknown } | null | undefined;
  const entry = typeof stored?.provider === 'string' ? catalogProvider(stored.provider) : undefined;
  if (entry && typeof stored?.model_name === 'string' && stored.model_name) return { provider: entry.provider, model: stored.model_name, source: 'user default' };
  return undefined;
}

async function disabledModels(ctx: Pick<ComponentContext, 'variable'>): Promise<Set<string>> {
  const raw = await ctx.variable(DISABLED_MODELS_VARIABLE).catch(() => '');
  const parsed: unknown = raw ? parseOr(raw, []) : [];
  return new Set(Array.isArray(parsed) ? parsed.filter((name): name is string => typeof name === 'string') : []);
}

const parseOr = (text: string, fallback: unknown): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
};

function settingDefault(kind: ModelKind, ctx: Pick<ComponentContext, 'models'>): DefaultModel | undefined {
  const setting = ctx.models?.[kind];
  if (!setting) return undefined;
  const parsed = parseModelSetting(setting);
  // The setting was checked at start-up; a bad one here came from a bare engine run, and is no default.
  return 'error' in parsed ? undefined : { provider: parsed.entry.provider, model: parsed.model, source: 'service setting' };
}
