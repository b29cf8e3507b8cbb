/**
 * StructuredOutput's table of fields (`{name, description, type, multiple}` rows) as a JSON schema: the reply is
 * `{objects: [row, ...]}`, as Langflow asks its model for a list of rows. Missing values may be null, as the
 * default instructions tell the model to use.
 */
import type { JSONSchema7 } from 'ai';
import { ComponentError } from '../component.error.js';

const TYPES: Readonly<Record<string, JSONSchema7['type']>> = {
  str: 'string',
  string: 'string',
  int: 'integer',
  integer: 'integer',
  float: 'number',
  number: 'number',
  bool: 'boolean',
  boolean: 'boolean',
  dict: 'object',
  object: 'object',
};

/** Langflow's truthy spellings of "As List" ("True", "true", "1", "yes", ...). */
const isTrue = (value: unknown) => value === true || (typeof value === 'string' && ['true', '1', 't', 'y', 'yes'].includes(value.trim().toLowerCase()));

export function rowSchema(rows: readonly Record<string, unknown>[]): JSONSchema7 {
  if (rows.length === 0) throw new ComponentError('Output schema cannot be empty (output_schema): add at least one field.');
  const properties: Record<string, JSONSchema7> = {};
  rows.forEach((row, index) => {
    const name = typeof row.name === 'string' ? row.name.trim() : '';
    if (!name) throw new ComponentError(`Output schema row ${index + 1} has no name (output_schema).`);
    if (name in properties) throw new ComponentError(`Output schema names the field "${name}" twice (output_schema).`);
    const typeName = String(row.type ?? 'str').trim().toLowerCase() || 'str';
    const type = TYPES[typeName];
    if (!type) throw new ComponentError(`Output schema field "${name}" has unknown type "${typeName}" (output_schema); use str, int, float, bool or dict.`);
    const scalar: JSONSchema7 = { type: [type, 'null'] };
    const description = typeof row.description === 'string' ? row.description : '';
    properties[name] = { ...(isTrue(row.multiple) ? { type: 'array', items: scalar } : scalar), ...(description ? { description } : {}) };
  });
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

export function objectsSchema(rows: readonly Record<string, unknown>[], schemaName: string): JSONSchema7 {
  return {
    type: 'object',
    properties: { objects: { type: 'array', description: `List of ${schemaName} objects extracted from the input`, items: rowSchema(rows) } },
    required: ['objects'],
    additionalProperties: false,
  };
}
