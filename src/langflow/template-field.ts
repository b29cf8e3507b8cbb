/** A component field (FieldSpec) as a Langflow template field, the shape the visual editor renders. */
import type { FieldSpec } from '../components/contract.js';
import type { TemplateField } from '../../protocol/meta.schema.js';
import { mixinKeys, mixinsOf } from './input-layouts.js';

export function templateField(name: string, spec: FieldSpec): TemplateField {
  // Keys of Langflow's BaseInputMixin: every field has them.
  const field: TemplateField = {
    _input_type: spec.inputClass,
    type: spec.type,
    name,
    display_name: spec.displayName,
    value: templateValue(spec),
    show: spec.show ?? true,
    advanced: spec.advanced ?? false,
    required: spec.required ?? false,
    placeholder: spec.placeholder ?? '',
    dynamic: false,
    info: spec.info ?? '',
    title_case: false,
  };
  for (const mixin of mixinsOf(spec.inputClass)) Object.assign(field, mixinKeys(mixin, spec));
  // Whatever the definition states explicitly is kept, even where its class would not carry the key.
  Object.assign(field, explicitKeys(spec));
  return field;
}

/** The optional FieldSpec properties the definition set, under their Langflow key names. */
function explicitKeys(spec: FieldSpec): Record<string, unknown> {
  const keys: Record<string, unknown> = {
    input_types: spec.inputTypes,
    list: spec.list,
    multiline: spec.multiline,
    password: spec.password,
    load_from_db: spec.loadFromDb,
    options: spec.options,
    fileTypes: spec.fileTypes,
    tool_mode: spec.toolMode,
  };
  return Object.fromEntries(Object.entries(keys).filter(([, value]) => value !== undefined));
}

/** The template's default; falls back to the schema's default for a definition that left `value` out. */
function templateValue(spec: FieldSpec): unknown {
  if (spec.value !== undefined) return spec.value;
  const parsed = spec.schema.safeParse(undefined);
  return parsed.success && parsed.data !== undefined ? parsed.data : '';
}

/**
 * Langflow puts the component's Python source in a `code` field and its editor expects the key (it decides
 * whether to offer the code view and the "outdated component" check from it). We run native components, so
 * there is no source to show: the value is empty, which is also what Langflow's own editor sends for
 * built-in components and what the starter exports hold, and which turns the outdated check off.
 * The keys are those of the legacy Input model that Langflow uses for this field.
 */
export function codeField(): TemplateField {
  return {
    type: 'code',
    name: 'code',
    value: '',
    show: true,
    advanced: true,
    required: true,
    placeholder: '',
    dynamic: true,
    info: '',
    title_case: false,
    list: false,
    multiline: true,
    password: false,
    load_from_db: false,
    fileTypes: [],
    file_path: '',
  };
}
