/**
 * A prompt template's variables as fields of its node, as Langflow's prompt validation does: one Message-accepting
 * field per variable (keeping the value a field of that name already had), the variables listed under
 * `custom_fields[<template field>]`, and the fields of variables the template no longer has removed.
 */
import type { FrontendNodeInput } from '../../protocol/custom-component.schema.js';

/** Langflow's DefaultPromptField, serialised: the keys its editor reads on a prompt variable's field. */
function promptField(name: string, value: unknown): Record<string, unknown> {
  return {
    advanced: false,
    display_name: name,
    dynamic: false,
    info: '',
    list: false,
    name,
    placeholder: '',
    required: false,
    show: true,
    title_case: false,
    type: 'str',
    value,
    input_types: ['Message'],
    multiline: true,
    fileTypes: [],
    file_path: '',
    load_from_db: false,
  };
}

export function withPromptVariables(node: FrontendNodeInput, templateField: string, variables: readonly string[]): FrontendNodeInput {
  const template: Record<string, unknown> = { ...node.template };
  const customFields: Record<string, unknown> = { ...(node.custom_fields ?? {}) };
  const listed = Object.hasOwn(customFields, templateField) ? customFields[templateField] : undefined;
  const previous = Array.isArray(listed) ? (listed as unknown[]).filter((v): v is string => typeof v === 'string') : [];
  for (const variable of variables) {
    const existing = Object.hasOwn(template, variable) ? template[variable] : undefined;
    const value = typeof existing === 'object' && existing !== null && 'value' in existing ? (existing as { value: unknown }).value : '';
    setOwn(template, variable, promptField(variable, value));
  }
  const kept = new Set(variables);
  for (const gone of previous) if (!kept.has(gone)) delete template[gone];
  setOwn(customFields, templateField, [...variables]);
  const inputVariables = template.input_variables;
  if (typeof inputVariables === 'object' && inputVariables !== null) template.input_variables = { ...inputVariables, value: [...variables] };
  return { ...node, template, custom_fields: customFields };
}

/** Sets an own property even for a name such as `__proto__` (a variable name is the caller's to choose). */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
