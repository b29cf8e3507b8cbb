/**
 * Langflow's Models API: the catalog of models this service can call, the caller's enabled providers (those whose
 * variable resolves for the caller's runs: stored variables, request headers, and the environment where the
 * caller's runs read it) and models, and the caller's default models, which empty model fields take.
 */
import { z } from 'zod';
import {
  DefaultModelBody,
  DefaultModelQuery,
  DefaultModelRequest,
  EnabledModels,
  EnabledModelsQuery,
  EnabledProviders,
  EnabledProvidersQuery,
  MAX_MODEL_UPDATES,
  ModelListQuery,
  ModelStatusLists,
  ModelStatusUpdates,
  ProviderModels,
} from '../../../protocol/models.schema.js';
import { catalogProvider, MODEL_CATALOG } from '../../components/models/model-catalog.js';
import { defineRoute, type Route } from '../../edge/route.js';
import { BadRequestError } from '../../errors/index.js';
import { enabledModels, isCatalogDefault, providerModels } from '../../langflow/models-response.js';
import { ModelPreferences } from '../../services/model-preferences.js';
import type { Services } from '../../services/services.js';
import { headerVariables } from '../run/global-vars.js';

const TAGS = ['Models'];

export function modelsRoutes(services: Services): Route[] {
  const preferences = new ModelPreferences(services.store, services.runner);
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/models',
      summary: 'The model catalog by provider, filtered (repeat `provider` for several), each provider marked enabled or not for you',
      tags: TAGS,
      auth: 'user',
      query: ModelListQuery,
      responses: { 200: { description: 'Providers with their models', schema: z.array(ProviderModels) } },
      async handler({ query, principal, headers }) {
        const userId = principal!.userId;
        const status = await preferences.status(userId, headerVariables(headers));
        const kind = query.model_type === 'embeddings' || query.model_type === 'embedding' ? 'embedding' : 'language';
        const chosen = query.model_type ? await preferences.defaultModel(userId, kind) : null;
        return providerModels(query, status, chosen?.provider);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/models/providers',
      summary: 'The model providers this service can call',
      tags: TAGS,
      auth: 'user',
      responses: { 200: { description: 'Provider names, sorted', schema: z.array(z.string()) } },
      handler: () => MODEL_CATALOG.map((entry) => entry.name).sort(),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/models/provider-variable-mapping',
      summary: 'The variable that enables each provider',
      tags: TAGS,
      auth: 'user',
      responses: { 200: { description: 'Provider name to variable name', schema: z.record(z.string(), z.string()) } },
      handler: () => Object.fromEntries(MODEL_CATALOG.map((entry) => [entry.name, entry.variable])),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/models/enabled_providers',
      summary: 'The providers enabled for you: those whose variable your runs can read',
      tags: TAGS,
      auth: 'user',
      query: EnabledProvidersQuery,
      responses: { 200: { description: 'Enabled providers, and every provider\'s status', schema: EnabledProviders } },
      async handler({ query, principal, headers }) {
        const enabled = await preferences.enabledProviders(principal!.userId, headerVariables(headers));
        const wanted = (name: string) => !query.providers?.length || query.providers.includes(name);
        const names = MODEL_CATALOG.map((entry) => entry.name).filter(wanted);
        return { enabled_providers: names.filter((name) => enabled.has(name)), provider_status: Object.fromEntries(names.map((name) => [name, enabled.has(name)])) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/models/enabled_models',
      summary: 'Whether each model is offered to you: its provider enabled, a default or turned on, and not turned off',
      tags: TAGS,
      auth: 'user',
      query: EnabledModelsQuery,
      responses: { 200: { description: 'Per provider, per model', schema: EnabledModels } },
      async handler({ query, principal, headers }) {
        return { enabled_models: enabledModels(await preferences.status(principal!.userId, headerVariables(headers)), query.model_names) };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/models/enabled_models',
      summary: 'Turn models on or off for you (100 at most per request)',
      tags: TAGS,
      auth: 'user',
      body: ModelStatusUpdates,
      responses: { 200: { description: 'The models you turned off, and those you turned on beyond the defaults', schema: ModelStatusLists } },
      handler: ({ body, principal }) => {
        if (body.length > MAX_MODEL_UPDATES) throw new BadRequestError(`Cannot update more than ${MAX_MODEL_UPDATES} models at once`);
        return preferences.update(principal!.userId, body, isCatalogDefault);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/models/default_model',
      summary: 'Your default model of a type (what empty model fields take before FLOWSVC_DEFAULT_MODEL)',
      tags: TAGS,
      auth: 'user',
      query: DefaultModelQuery,
      responses: { 200: { description: 'The default, or null', schema: DefaultModelBody } },
      handler: async ({ query, principal }) => ({ default_model: await preferences.defaultModel(principal!.userId, query.model_type) }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/models/default_model',
      summary: 'Set your default model of a type',
      tags: TAGS,
      auth: 'user',
      body: DefaultModelRequest,
      responses: { 200: { description: 'The default set', schema: DefaultModelBody } },
      async handler({ body, principal }) {
        const entry = catalogProvider(body.provider);
        if (!entry) throw new BadRequestError(`Unknown model provider "${body.provider}"; one of ${MODEL_CATALOG.map((p) => p.name).join(', ')}`);
        return { default_model: await preferences.setDefaultModel(principal!.userId, { ...body, provider: entry.name }) };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/models/default_model',
      summary: 'Clear your default model of a type',
      tags: TAGS,
      auth: 'user',
      query: DefaultModelQuery,
      responses: { 200: { description: 'Cleared', schema: DefaultModelBody } },
      async handler({ query, principal }) {
        await preferences.clearDefaultModel(principal!.userId, query.model_type);
        return { default_model: null };
      },
    }),
  ];
}
