/**
 * A caller's model choices, kept where Langflow keeps them: as Generic global variables of the user
 * (`__disabled_models__`, `__enabled_models__` as JSON lists, `__default_language_model__` and
 * `__default_embedding_model__` as JSON objects), so runs read the default through the same variables. Which
 * providers are enabled is not stored: a provider is enabled when its variable resolves for the caller's runs.
 */
import { randomUUID } from 'node:crypto';
import { MODEL_CATALOG } from '../components/models/model-catalog.js';
import { DEFAULT_MODEL_VARIABLES, DISABLED_MODELS_VARIABLE } from '../components/models/default-model.js';
import type { ModelKind } from '../components/models/model-catalog.js';
import type { ModelStatus } from '../langflow/models-response.js';
import type { Store } from '../store/port.js';
import { nowIso } from './clock.js';
import type { FlowRunner } from './flow-runner.js';

const DISABLED = DISABLED_MODELS_VARIABLE;
const ENABLED = '__enabled_models__';

export interface DefaultModelChoice {
  model_name: string;
  provider: string;
  model_type: ModelKind;
}

export class ModelPreferences {
  constructor(
    private readonly store: Pick<Store, 'variables'>,
    private readonly runner: Pick<FlowRunner, 'variablesFor'>,
  ) {}

  /** Langflow's provider names whose variable resolves for this user (request variables count too). */
  async enabledProviders(userId: string, requestVariables?: Record<string, string>): Promise<Set<string>> {
    const variables = this.runner.variablesFor(userId, requestVariables);
    const found = await Promise.all(MODEL_CATALOG.map((entry) => variables.resolve(entry.variable).then((value) => value !== '', () => false)));
    return new Set(MODEL_CATALOG.filter((_entry, index) => found[index]).map((entry) => entry.name));
  }

  async status(userId: string, requestVariables?: Record<string, string>): Promise<ModelStatus> {
    const [enabledProviders, disabled, explicitlyEnabled] = await Promise.all([this.enabledProviders(userId, requestVariables), this.list(userId, DISABLED), this.list(userId, ENABLED)]);
    return { enabledProviders, disabled, explicitlyEnabled };
  }

  /** Turns models on or off; a default model turned on is no exception to remember. */
  async update(userId: string, updates: { model_id: string; enabled: boolean }[], isDefault: (model: string) => boolean) {
    const [disabled, enabled] = await Promise.all([this.list(userId, DISABLED), this.list(userId, ENABLED)]);
    for (const { model_id, enabled: on } of updates) {
      if (on) {
        disabled.delete(model_id);
        if (!isDefault(model_id)) enabled.add(model_id);
      } else {
        disabled.add(model_id);
        enabled.delete(model_id);
      }
    }
    await this.write(userId, DISABLED, JSON.stringify([...disabled]));
    await (enabled.size > 0 ? this.write(userId, ENABLED, JSON.stringify([...enabled])) : this.remove(userId, ENABLED));
    return { disabled_models: [...disabled], enabled_models: [...enabled] };
  }

  async defaultModel(userId: string, kind: ModelKind): Promise<DefaultModelChoice | null> {
    const record = await this.store.variables.getByName(userId, DEFAULT_MODEL_VARIABLES[kind]);
    const parsed = record?.type === 'Generic' ? parseJson(record.value) : undefined;
    const valid = parsed && typeof parsed === 'object' && ['model_name', 'provider', 'model_type'].every((key) => key in parsed);
    return valid ? (parsed as DefaultModelChoice) : null;
  }

  async setDefaultModel(userId: string, choice: DefaultModelChoice): Promise<DefaultModelChoice> {
    await this.write(userId, DEFAULT_MODEL_VARIABLES[choice.model_type], JSON.stringify(choice));
    return choice;
  }

  clearDefaultModel(userId: string, kind: ModelKind): Promise<void> {
    return this.remove(userId, DEFAULT_MODEL_VARIABLES[kind]);
  }

  private async list(userId: string, name: string): Promise<Set<string>> {
    const record = await this.store.variables.getByName(userId, name);
    const parsed = record?.type === 'Generic' ? parseJson(record.value) : undefined;
    return new Set(Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : []);
  }

  private async write(userId: string, name: string, value: string): Promise<void> {
    const current = await this.store.variables.getByName(userId, name);
    const now = nowIso();
    const base = current ?? { id: randomUUID(), user_id: userId, name, default_fields: [], created_at: now };
    await this.store.variables.put({ ...base, type: 'Generic', value, updated_at: now });
  }

  private async remove(userId: string, name: string): Promise<void> {
    const current = await this.store.variables.getByName(userId, name);
    if (current) await this.store.variables.delete(current);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
