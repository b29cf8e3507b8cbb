/** Langflow's Models API (/api/v1/models...): the model catalog, the caller's enabled providers and models, defaults. */
import { z } from 'zod';
import { QueryBool } from './common.schema.js';

/** A query parameter that may repeat (`?provider=OpenAI&provider=Anthropic`). */
const Repeated = z
  .union([z.string(), z.array(z.string())])
  .transform((value) => (Array.isArray(value) ? value : [value]))
  .pipe(z.array(z.string().max(200)).max(100));

export const ModelListQuery = z.object({
  provider: Repeated.optional(),
  model_name: z.string().max(200).optional(),
  model_type: z.string().max(50).optional(),
  include_unsupported: QueryBool.optional(),
  include_deprecated: QueryBool.optional(),
  tool_calling: QueryBool.optional(),
  reasoning: QueryBool.optional(),
  search: QueryBool.optional(),
  preview: QueryBool.optional(),
  deprecated: QueryBool.optional(),
  not_supported: QueryBool.optional(),
});
export type ModelListQuery = z.infer<typeof ModelListQuery>;

export const ModelMetadata = z.object({
  icon: z.string(),
  tool_calling: z.boolean(),
  reasoning: z.boolean(),
  search: z.boolean(),
  preview: z.boolean(),
  not_supported: z.boolean(),
  deprecated: z.boolean(),
  default: z.boolean(),
  model_type: z.enum(['llm', 'embeddings']),
});

export const ProviderVariable = z.object({
  variable_name: z.string(),
  variable_key: z.string(),
  required: z.boolean(),
  is_secret: z.boolean(),
  is_list: z.boolean(),
  options: z.array(z.string()),
});

export const ProviderModels = z
  .object({
    icon: z.string(),
    variables: z.array(ProviderVariable),
    api_docs_url: z.string(),
    mapping: z.object({ model_class: z.string(), model_param: z.string() }),
    provider: z.string(),
    models: z.array(z.object({ model_name: z.string(), metadata: ModelMetadata })),
    num_models: z.number().int(),
    is_enabled: z.boolean(),
  })
  .meta({ id: 'ProviderModels' });

export const EnabledProvidersQuery = z.object({ providers: Repeated.optional() });
export const EnabledProviders = z
  .object({ enabled_providers: z.array(z.string()), provider_status: z.record(z.string(), z.boolean()) })
  .meta({ id: 'EnabledProviders' });

export const EnabledModelsQuery = z.object({ model_names: Repeated.optional() });
export const EnabledModels = z.object({ enabled_models: z.record(z.string(), z.record(z.string(), z.boolean())) }).meta({ id: 'EnabledModels' });

const ShortName = z
  .string()
  .trim()
  .min(1, 'Field cannot be empty')
  .max(200, 'Field exceeds maximum length of 200 characters');

export const ModelStatusUpdates = z.array(z.object({ provider: ShortName, model_id: ShortName, enabled: z.boolean() }));
/** Langflow refuses more in one request, with a 400. */
export const MAX_MODEL_UPDATES = 100;
export const ModelStatusLists = z.object({ disabled_models: z.array(z.string()), enabled_models: z.array(z.string()) });

/** Langflow's `model_type` of the default-model endpoints. */
export const DefaultModelType = z.enum(['language', 'embedding']);
export const DefaultModelQuery = z.object({ model_type: DefaultModelType.default('language') });
export const DefaultModelRequest = z.object({ model_name: ShortName, provider: ShortName, model_type: DefaultModelType });
export const DefaultModelBody = z
  .object({ default_model: z.object({ model_name: z.string(), provider: z.string(), model_type: DefaultModelType }).nullable() })
  .meta({ id: 'DefaultModel' });
