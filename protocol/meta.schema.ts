/**
 * Wire shapes of the metadata endpoints (/api/v1/version, /config, /all), as Langflow 1.7 answers them
 * (research: platform API section 5; Langflow's ConfigResponse, FrontendNode, Output and Input models).
 */
import { z } from 'zod';

export const VersionResponse = z
  .object({
    version: z.string(),
    /** `version` without its pre-release suffix. */
    main_version: z.string(),
    package: z.string(),
  })
  .meta({ id: 'VersionResponse' });
export type VersionResponse = z.infer<typeof VersionResponse>;

/** Langflow's ConfigResponse: every key is required by its OpenAPI description. */
export const ConfigResponse = z
  .object({
    feature_flags: z.record(z.string(), z.boolean()),
    serialization_max_items_length: z.number().int(),
    serialization_max_text_length: z.number().int(),
    frontend_timeout: z.number().int(),
    auto_saving: z.boolean(),
    auto_saving_interval: z.number().int(),
    health_check_max_retries: z.number().int(),
    /** Megabytes. */
    max_file_size_upload: z.number(),
    webhook_polling_interval: z.number().int(),
    public_flow_cleanup_interval: z.number().int(),
    public_flow_expiration: z.number().int(),
    /** How the editor reads /build/.../events. */
    event_delivery: z.enum(['polling', 'streaming', 'direct']),
    webhook_auth_enable: z.boolean(),
    voice_mode_available: z.boolean(),
    default_folder_name: z.string(),
    hide_getting_started_progress: z.boolean(),
  })
  .meta({ id: 'ConfigResponse' });
export type ConfigResponse = z.infer<typeof ConfigResponse>;

/**
 * One field of a node's template. The always-present keys are listed; the rest depend on the input class
 * (`list`, `options`, `fileTypes`, `load_from_db`, `tool_mode`, ...) and pass through.
 */
export const TemplateField = z
  .looseObject({
    type: z.string(),
    name: z.string(),
    value: z.unknown(),
    show: z.boolean(),
    advanced: z.boolean(),
    required: z.boolean(),
    placeholder: z.string(),
    dynamic: z.boolean(),
    info: z.string(),
    title_case: z.boolean(),
    display_name: z.string().optional(),
    _input_type: z.string().optional(),
    input_types: z.array(z.string()).optional(),
  })
  .meta({ id: 'InputFieldTemplate' });
export type TemplateField = z.infer<typeof TemplateField>;

/** `_type` names the template kind; every other key is a field, keyed by its name. */
export const NodeTemplate = z.object({ _type: z.string() }).catchall(TemplateField);
/** Written out because TypeScript cannot express "every key but `_type`": the index signature admits both. */
export type NodeTemplate = { _type: string; [field: string]: TemplateField | string };

export const NodeOutput = z
  .object({
    types: z.array(z.string()),
    /** The type the editor shows as chosen: the first of `types`. */
    selected: z.string(),
    name: z.string(),
    display_name: z.string(),
    method: z.string(),
    /** Langflow's sentinel for "not computed yet". */
    value: z.literal('__UNDEFINED__'),
    cache: z.boolean(),
    allows_loop: z.boolean(),
    group_outputs: z.boolean(),
    tool_mode: z.boolean(),
  })
  .meta({ id: 'Output' });
export type NodeOutput = z.infer<typeof NodeOutput>;

/** What the editor drops into a flow as `data.node`. */
export const FrontendNode = z
  .object({
    template: NodeTemplate,
    description: z.string(),
    icon: z.string(),
    base_classes: z.array(z.string()),
    display_name: z.string(),
    documentation: z.string(),
    minimized: z.boolean(),
    custom_fields: z.record(z.string(), z.unknown()),
    output_types: z.array(z.string()),
    pinned: z.boolean(),
    conditional_paths: z.array(z.string()),
    frozen: z.boolean(),
    outputs: z.array(NodeOutput),
    field_order: z.array(z.string()),
    beta: z.boolean(),
    legacy: z.boolean(),
    edited: z.boolean(),
    metadata: z.looseObject({ module: z.string() }),
    tool_mode: z.boolean(),
  })
  .meta({ id: 'FrontendNode' });
export type FrontendNode = Omit<z.infer<typeof FrontendNode>, 'template'> & { template: NodeTemplate };

/** GET /api/v1/all: category -> component type -> node. */
export const ComponentCatalog = z.record(z.string(), z.record(z.string(), FrontendNode)).meta({ id: 'ComponentCatalog' });
export type ComponentCatalog = Record<string, Record<string, FrontendNode>>;
