/**
 * Template field -> parameter value, by Langflow's rules (research: components section 2): hidden fields fall back
 * to defaults, file fields read `file_path`, `load_from_db` values name a global variable, empty values of
 * non-text fields mean "use the default".
 */
import type { FieldSpec } from '../components/contract.js';
import type { TemplateField } from './flow-json.js';

export type ParamValue = { kind: 'value'; value: unknown } | { kind: 'variable'; name: string } | { kind: 'default' };

export function paramOf(field: TemplateField, spec: FieldSpec | undefined): ParamValue {
  if (field.show === false) return { kind: 'default' };
  if (field.type === 'file' || spec?.type === 'file') return fileParam(field.file_path, spec);
  const value = field.value;
  if (field.load_from_db && typeof value === 'string' && value !== '') return { kind: 'variable', name: value };
  if (value === undefined || value === null) return { kind: 'default' };
  if (!spec) return { kind: 'value', value };
  return castTo(spec, value);
}

function fileParam(filePath: unknown, spec: FieldSpec | undefined): ParamValue {
  if (Array.isArray(filePath)) return { kind: 'value', value: filePath.filter((p) => typeof p === 'string' && p !== '') };
  if (typeof filePath === 'string' && filePath !== '') return { kind: 'value', value: spec?.list === false ? filePath : [filePath] };
  return { kind: 'default' };
}

/** Langflow casts int/float/slider and stringly booleans; an empty string on such a field means the default. */
function castTo(spec: FieldSpec, value: unknown): ParamValue {
  switch (spec.type) {
    case 'int':
    case 'float':
    case 'slider': {
      if (value === '') return { kind: 'default' };
      const n = typeof value === 'number' ? value : Number(value);
      return { kind: 'value', value: Number.isNaN(n) ? value : spec.type === 'int' ? Math.trunc(n) : n };
    }
    case 'bool':
      if (typeof value === 'string') return value === '' ? { kind: 'default' } : { kind: 'value', value: ['true', '1', 'yes'].includes(value.toLowerCase()) };
      return { kind: 'value', value: Boolean(value) };
    case 'dict':
    case 'NestedDict':
      if (Array.isArray(value)) return { kind: 'value', value: Object.assign({}, ...value.filter((v) => typeof v === 'object' && v !== null)) };
      if (value === '') return { kind: 'default' };
      return { kind: 'value', value };
    case 'other':
      // Pure handles only get values through edges.
      return { kind: 'default' };
    default:
      return { kind: 'value', value };
  }
}
