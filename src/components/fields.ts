/** Builders for component fields, one per Langflow input class, so definitions read like Langflow's. */
import { z } from 'zod';
import type { FieldSpec } from './contract.js';

type Common = Pick<FieldSpec, 'displayName' | 'info' | 'advanced' | 'show' | 'required' | 'placeholder' | 'toolMode'>;

/** MessageTextInput / MultilineInput: text that may also arrive as a Message or Data on an edge. */
export function text(options: Common & { value?: string; multiline?: boolean; inputTypes?: string[]; options?: string[] }): FieldSpec<string> {
  return {
    schema: z.string().default(options.value ?? ''),
    type: 'str',
    inputClass: options.multiline ? 'MultilineInput' : 'MessageTextInput',
    accepts: 'text',
    inputTypes: options.inputTypes ?? ['Message'],
    ...options,
    value: options.value ?? '',
  };
}

/** StrInput / DropdownInput without a handle. */
export function str(options: Common & { value?: string; options?: string[]; multiline?: boolean }): FieldSpec<string> {
  return {
    schema: options.options ? z.string().default(options.value ?? options.options[0]) : z.string().default(options.value ?? ''),
    type: 'str',
    inputClass: options.options ? 'DropdownInput' : 'StrInput',
    accepts: 'text',
    ...options,
    value: options.value ?? '',
  };
}

/** SecretStrInput: by default the value names a global variable (load_from_db). */
export function secret(options: Common & { value?: string; loadFromDb?: boolean }): FieldSpec<string> {
  return {
    schema: z.string().default(''),
    type: 'str',
    inputClass: 'SecretStrInput',
    accepts: 'text',
    password: true,
    loadFromDb: options.loadFromDb ?? true,
    ...options,
    value: options.value ?? '',
  };
}

export function bool(options: Common & { value?: boolean }): FieldSpec<boolean> {
  return { schema: z.boolean().default(options.value ?? false), type: 'bool', inputClass: 'BoolInput', accepts: 'any', ...options, value: options.value ?? false };
}

export function int(options: Common & { value?: number; min?: number }): FieldSpec<number> {
  let schema = z.number().int();
  if (options.min !== undefined) schema = schema.min(options.min);
  return { schema: schema.default(options.value ?? 0), type: 'int', inputClass: 'IntInput', accepts: 'any', ...options, value: options.value ?? 0 };
}

export function float(options: Common & { value?: number; min?: number; max?: number }): FieldSpec<number> {
  let schema = z.number();
  if (options.min !== undefined) schema = schema.min(options.min);
  if (options.max !== undefined) schema = schema.max(options.max);
  return { schema: schema.default(options.value ?? 0), type: 'float', inputClass: 'FloatInput', accepts: 'any', ...options, value: options.value ?? 0 };
}

/** HandleInput: a value that only arrives through an edge (Langflow type `other`). */
export function handle(options: Common & { inputTypes: string[]; list?: boolean }): FieldSpec<unknown> {
  return { schema: z.unknown(), type: 'other', inputClass: 'HandleInput', accepts: 'any', ...options, value: '' };
}

/** MessageInput: a Message (strings and objects are wrapped). */
export function message(options: Common & { inputTypes?: string[] }): FieldSpec<unknown> {
  return { schema: z.unknown(), type: 'str', inputClass: 'MessageInput', accepts: 'message', inputTypes: options.inputTypes ?? ['Message'], ...options, value: '' };
}

/** FileInput: paths come from the node's `file_path`. */
export function file(options: Common & { fileTypes: string[]; list?: boolean }): FieldSpec<string[]> {
  return { schema: z.array(z.string()).default([]), type: 'file', inputClass: 'FileInput', accepts: 'any', ...options, value: '' };
}

export function dict(options: Common & { value?: Record<string, unknown> }): FieldSpec<Record<string, unknown>> {
  return { schema: z.record(z.string(), z.unknown()).default(options.value ?? {}), type: 'dict', inputClass: 'DictInput', accepts: 'any', ...options, value: options.value ?? {} };
}
