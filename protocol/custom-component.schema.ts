/**
 * Wire shapes of the custom component and validation endpoints (/api/v1/validate/code, /validate/prompt,
 * /custom_component, /custom_component/update), as Langflow answers them (api/v1/base.py, api/v1/endpoints.py).
 */
import { z } from 'zod';
import { FrontendNode } from './meta.schema.js';

/** Longest component source accepted (characters); real components are a few kilobytes. */
export const MAX_SOURCE_LENGTH = 512 * 1024;

const Source = z.string().max(MAX_SOURCE_LENGTH);

export const CodeRequest = z.object({ code: Source }).meta({ id: 'Code' });

const ErrorList = z.object({ errors: z.array(z.string()) });

/** Langflow's CodeValidationResponse: problems of the imports, and of the code itself. */
export const CodeValidationResponse = z.object({ imports: ErrorList, function: ErrorList }).meta({ id: 'CodeValidationResponse' });
export type CodeValidationResponse = z.infer<typeof CodeValidationResponse>;

/** A frontend node as the editor sends it back: its template and custom fields are read, everything else kept. */
export const FrontendNodeInput = z
  .looseObject({
    template: z.record(z.string(), z.unknown()),
    custom_fields: z.record(z.string(), z.unknown()).nullish(),
  })
  .meta({ id: 'FrontendNodeRequest' });
export type FrontendNodeInput = z.infer<typeof FrontendNodeInput>;

export const ValidatePromptRequest = z
  .object({
    /** The template field's name in the node (`template` for a Prompt). */
    name: z.string().min(1).max(256),
    template: z.string().max(MAX_SOURCE_LENGTH),
    custom_fields: z.record(z.string(), z.unknown()).nullish(),
    frontend_node: FrontendNodeInput.nullish(),
    /** Double-bracket (`{{var}}`) syntax instead of f-string (`{var}`). */
    mustache: z.boolean().default(false),
  })
  .meta({ id: 'ValidatePromptRequest' });

export const PromptValidationResponse = z
  .object({ input_variables: z.array(z.string()), frontend_node: FrontendNodeInput.nullable() })
  .meta({ id: 'PromptValidationResponse' });

export const CustomComponentRequest = z.object({ code: Source, frontend_node: FrontendNodeInput.nullish() }).meta({ id: 'CustomComponentRequest' });

export const CustomComponentResponse = z
  .object({ data: FrontendNode, /** The component's type key, as a flow node's `data.type`. */ type: z.string() })
  .meta({ id: 'CustomComponentResponse' });

export const UpdateCustomComponentRequest = z
  .object({
    code: Source,
    frontend_node: FrontendNodeInput.nullish(),
    /** The field that changed. */
    field: z.string().min(1).max(256),
    field_value: z.union([z.string(), z.number(), z.boolean(), z.record(z.string(), z.unknown()), z.array(z.unknown())]).nullish(),
    /** The node's template as the editor holds it (current values). */
    template: z.record(z.string(), z.unknown()),
    tool_mode: z.boolean().default(false),
  })
  .meta({ id: 'UpdateCustomComponentRequest' });
