/** Builders for component fields, one per Langflow input class, so definitions read like Langflow's. */
import { z } from 'zod';
import { isData } from '../values/data.js';
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

/** PromptInput: a template whose `{variables}` become fields of their own (Prompt). */
export function prompt(options: Common & { value?: string }): FieldSpec<string> {
  return { schema: z.string().default(options.value ?? ''), type: 'prompt', inputClass: 'PromptInput', accepts: 'text', ...options, value: options.value ?? '' };
}

/** DropdownInput whose value must be one of its options (a typo is an error naming the field, not a silent default). */
export function choice<const O extends readonly [string, ...string[]]>(options: Common & { options: O; value?: O[number] }): FieldSpec<O[number]> {
  const { options: choices, ...rest } = options;
  const fallback = options.value ?? choices[0];
  // An empty value (a cleared dropdown in an export) means the default, as it does for Langflow.
  const orDefault = (value: unknown) => (value === '' || value === undefined ? fallback : value);
  return {
    schema: z.preprocess(orDefault, z.enum(choices)).default(fallback) as unknown as z.ZodType<O[number]>,
    type: 'str',
    inputClass: 'DropdownInput',
    accepts: 'text',
    ...rest,
    options: [...choices],
    value: options.value ?? choices[0],
  };
}

/** TabInput: a segmented choice (Langflow's `mode` switches); the value must be one of the options. */
export function tab<const O extends readonly [string, ...string[]]>(options: Common & { options: O; value?: O[number] }): FieldSpec<O[number]> {
  return { ...choice(options), type: 'tab', inputClass: 'TabInput' };
}

/** MessageTextInput with `is_list`: several texts (URLs); a single string becomes a one-item list. */
export function textList(options: Common & { value?: string[]; inputTypes?: string[] }): FieldSpec<string[]> {
  const single = z.string().transform((s) => (s === '' ? [] : [s]));
  return {
    schema: z.union([z.array(z.string()), single]).default(options.value ?? []),
    type: 'str',
    inputClass: 'MessageTextInput',
    accepts: 'text',
    inputTypes: options.inputTypes ?? ['Message'],
    list: true,
    ...options,
    value: options.value ?? [],
  };
}

/**
 * TableInput: rows of cells (headers, bodies as `{key, value}` rows). A plain object, or a Data on an edge, is taken
 * as one `{key, value}` row per key.
 */
export function table(options: Common & { value?: Record<string, unknown>[]; inputTypes?: string[] }): FieldSpec<Record<string, unknown>[]> {
  const row = z.record(z.string(), z.unknown());
  const keyed = row.transform((object) => Object.entries(object).map(([key, value]) => ({ key, value })));
  const unwrapData = (value: unknown) => (isData(value) ? value.data : value);
  return {
    schema: z.preprocess(unwrapData, z.union([z.array(row), keyed])).default(options.value ?? []) as unknown as z.ZodType<Record<string, unknown>[]>,
    type: 'table',
    inputClass: 'TableInput',
    accepts: 'any',
    ...options,
    value: options.value ?? [],
  };
}

/** IntInput bounded on both sides (Langflow's sliders with a range, such as crawl depth). */
export function intRange(options: Common & { value: number; min: number; max: number }): FieldSpec<number> {
  const { min, max, ...rest } = options;
  return { schema: z.number().int().min(min).max(max).default(options.value), type: 'int', inputClass: 'IntInput', accepts: 'any', ...rest };
}
