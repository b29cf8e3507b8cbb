/** Field builders the model components need beyond src/components/fields.ts (Langflow's SliderInput, ModelInput, TableInput). */
import { z } from 'zod';
import type { FieldSpec } from '../contract.js';

type Common = Pick<FieldSpec, 'displayName' | 'info' | 'advanced' | 'show' | 'required'>;

/** SliderInput: a number in a range (temperature). */
export function slider(options: Common & { value: number; min: number; max: number }): FieldSpec<number> {
  const { min, max, ...rest } = options;
  return { schema: z.number().min(min).max(max).default(options.value), type: 'slider', inputClass: 'SliderInput', accepts: 'any', ...rest };
}

/**
 * ModelInput (Langflow 1.7+): a list of `{name, provider, metadata}` picked in the editor, or a LanguageModel
 * through an edge. Validated by src/components/models/model-selection.ts, which names the field in its errors.
 */
export function modelInput(options: Common): FieldSpec<unknown> {
  return { schema: z.unknown(), type: 'model', inputClass: 'ModelInput', accepts: 'any', inputTypes: ['LanguageModel'], ...options, value: [] };
}

/** TableInput: rows of plain objects (StructuredOutput's output schema). */
export function table(options: Common & { value?: Record<string, unknown>[] }): FieldSpec<Record<string, unknown>[]> {
  const value = options.value ?? [];
  return { schema: z.array(z.record(z.string(), z.unknown())).default(value), type: 'table', inputClass: 'TableInput', accepts: 'any', ...options, value };
}
