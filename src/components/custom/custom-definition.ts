/**
 * The public contract of a custom component: the default export's shape (README, "Custom components"). Users write
 * this, so it stays stable and is checked with clear messages. Fields use the kinds of our field helpers
 * (src/components/fields.ts) with the same options; each is turned into the same FieldSpec a native field has.
 */
import { z } from 'zod';
import type { FieldMap, FieldSpec } from '../contract.js';
import { bool, choice, dict, float, handle, int, message, secret, str, tab, table, text, textList } from '../fields.js';

const FIELD_KINDS = ['text', 'multiline', 'str', 'secret', 'bool', 'int', 'float', 'handle', 'message', 'dict', 'choice', 'tab', 'table', 'textList'] as const;

const CustomField = z.strictObject({
  kind: z.enum(FIELD_KINDS),
  displayName: z.string().min(1),
  info: z.string().optional(),
  value: z.unknown().optional(),
  required: z.boolean().optional(),
  advanced: z.boolean().optional(),
  show: z.boolean().optional(),
  placeholder: z.string().optional(),
  inputTypes: z.array(z.string().min(1)).optional(),
  options: z.array(z.string()).min(1).optional(),
  list: z.boolean().optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  loadFromDb: z.boolean().optional(),
});
type CustomField = z.infer<typeof CustomField>;

const NAME = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be letters, digits and _, not starting with a digit');

export const CustomDefinition = z.strictObject({
  displayName: z.string().min(1),
  description: z.string().default(''),
  icon: z.string().default('code'),
  fields: z.record(NAME.refine((name) => name !== 'code', '"code" is the node\'s own source field'), CustomField).default({}),
  outputs: z
    .array(z.strictObject({ name: NAME, displayName: z.string().min(1).optional(), types: z.array(z.string().min(1)).min(1) }))
    .min(1)
    .refine((outputs) => new Set(outputs.map((o) => o.name)).size === outputs.length, 'output names must be unique'),
});
export type CustomDefinition = z.infer<typeof CustomDefinition>;

/** The problems of a described export, as "path: message" lines; empty when it is a valid definition. */
export function definitionProblems(described: { definition?: unknown; runType?: string; notAnObject?: string }): { problems: string[]; definition?: CustomDefinition } {
  if (described.notAnObject !== undefined) return { problems: [`the default export must be an object (it is ${described.notAnObject})`] };
  const { run: _run, ...rest } = (described.definition ?? {}) as Record<string, unknown>;
  const parsed = CustomDefinition.safeParse(rest);
  const problems = parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.length ? issue.path.join('.') : 'definition'}: ${issue.message}`);
  if (described.runType !== 'function') problems.push(`run: must be a function (it is ${described.runType ?? 'undefined'})`);
  for (const [name, field] of parsed.success ? Object.entries(parsed.data.fields) : []) {
    if ((field.kind === 'choice' || field.kind === 'tab') && !field.options) problems.push(`fields.${name}.options: a ${field.kind} field needs its options`);
    if (field.kind === 'handle' && !field.inputTypes) problems.push(`fields.${name}.inputTypes: a handle field needs the types it accepts`);
  }
  return problems.length ? { problems } : { problems, definition: parsed.data! };
}

/** The definition's fields as the FieldSpecs the engine and the editor's templates read. */
export function fieldSpecs(definition: CustomDefinition): FieldMap {
  return Object.fromEntries(Object.entries(definition.fields).map(([name, field]) => [name, fieldSpec(field)]));
}

function fieldSpec(field: CustomField): FieldSpec {
  const { kind, value, options, min, max, list, inputTypes, loadFromDb, ...common } = field;
  const asString = typeof value === 'string' ? value : undefined;
  const asNumber = typeof value === 'number' ? value : undefined;
  switch (kind) {
    case 'text':
    case 'multiline':
      return text({ ...common, value: asString, multiline: kind === 'multiline', inputTypes });
    case 'str':
      return str({ ...common, value: asString, options });
    case 'secret':
      return secret({ ...common, value: asString, loadFromDb });
    case 'bool':
      return bool({ ...common, value: typeof value === 'boolean' ? value : undefined });
    case 'int':
      return int({ ...common, value: asNumber, min });
    case 'float':
      return float({ ...common, value: asNumber, min, max });
    case 'handle':
      return handle({ ...common, inputTypes: inputTypes ?? [], list });
    case 'message':
      return message({ ...common, inputTypes });
    case 'dict':
      return dict({ ...common, value: isRecord(value) ? value : undefined });
    case 'table':
      return table({ ...common, value: Array.isArray(value) ? (value as Record<string, unknown>[]) : undefined });
    case 'textList':
      return textList({ ...common, value: Array.isArray(value) ? value.map(String) : undefined, inputTypes });
    case 'choice':
    case 'tab': {
      const choices = options as [string, ...string[]];
      const chosen = asString && choices.includes(asString) ? asString : undefined;
      return kind === 'choice' ? choice({ ...common, options: choices, value: chosen }) : tab({ ...common, options: choices, value: chosen });
    }
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
