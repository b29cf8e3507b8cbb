/**
 * Structured Output (Langflow's StructuredOutput): asks a model for a list of rows shaped by the output-schema
 * table, through the provider's JSON-schema output (AI SDK generateObject). One row comes out as a Data of that
 * row, several as `{results: [...]}`; the table output holds them all.
 */
import { aiSdk } from '../shared/heavy-modules.js';
import { createData } from '../../values/data.js';
import { isLanguageModel, type LanguageModelValue } from '../../values/language-model.js';
import { createTable } from '../../values/table.js';
import { ComponentError } from '../component.error.js';
import { defineComponent, type ComponentContext } from '../contract.js';
import { handle, secret, text } from '../fields.js';
import { modelInput, table } from './model-fields.js';
import { apiKeyFor, resolveModelField, selectedProvider, usesModelField } from './model-selection.js';
import { providerError } from './provider-error.js';
import { createLanguageModel, resolveBaseURL, sdkModules } from './providers.js';
import { objectsSchema } from './structured-schema.js';

const DEFAULT_INSTRUCTIONS =
  'You are an AI that extracts structured JSON objects from unstructured text. Use a predefined schema with expected types (str, int, float, bool, dict). ' +
  'Extract ALL relevant instances that match the schema - if multiple patterns exist, capture them all. Fill missing or ambiguous values with defaults: null for missing values. ' +
  'Remove exact duplicates but keep variations that have different field values. Always return valid JSON in the expected format, never throw errors. ' +
  'If multiple objects can be extracted, return them all in the structured format.';

export const structuredOutput = defineComponent({
  type: 'StructuredOutput',
  version: 1,
  displayName: 'Structured Output',
  description: 'Uses an LLM to generate structured data. Ideal for extraction and consistency.',
  category: 'processing',
  icon: 'braces',
  fields: {
    llm: handle({ displayName: 'Language Model', info: 'The language model to use to generate the structured output.', inputTypes: ['LanguageModel'], required: true }),
    input_value: text({ displayName: 'Input Message', info: 'The input message to the language model.', multiline: true, required: true }),
    system_prompt: text({ displayName: 'Format Instructions', info: 'The instructions to the language model for formatting the output.', multiline: true, value: DEFAULT_INSTRUCTIONS }),
    schema_name: text({ displayName: 'Schema Name', info: 'Provide a name for the output data schema.', advanced: true }),
    output_schema: table({
      displayName: 'Output Schema',
      info: "Define the structure and data types for the model's output.",
      required: true,
      value: [{ name: 'field', description: 'description of field', type: 'str', multiple: 'False' }],
    }),
    // Langflow 1.8 picks the model on the node itself.
    model: modelInput({ displayName: 'Language Model', info: 'Select your model provider', show: false }),
    api_key: secret({ displayName: 'API Key', info: 'Model Provider API key', show: false, advanced: true }),
  },
  // Always the AI SDK (generateObject); the provider's package is known when the node picks its model itself.
  heavyModules: (params) => sdkModules(selectedProvider(params.model)),
  outputs: [
    { name: 'structured_output', displayName: 'Structured Output', types: ['Data'], method: 'build_structured_output' },
    { name: 'dataframe_output', displayName: 'Structured Output', types: ['DataFrame'], method: 'build_structured_dataframe' },
  ],
  async run(inputs, ctx) {
    const model = await modelOf(inputs, ctx);
    const schemaName = inputs.schema_name.trim() || 'OutputModel';
    const schema = objectsSchema(inputs.output_schema, schemaName);
    if (!inputs.input_value.trim()) throw new ComponentError('The input message is empty (input_value).');
    let objects: unknown;
    const { generateObject, jsonSchema } = await aiSdk.load();
    try {
      const result = await generateObject({
        model: await model.sdk(),
        schema: jsonSchema<{ objects: Record<string, unknown>[] }>(schema),
        schemaName,
        system: inputs.system_prompt || undefined,
        prompt: inputs.input_value,
        ...model.settings,
        abortSignal: ctx.signal,
      });
      objects = result.object.objects;
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      throw providerError(error, model);
    }
    if (!Array.isArray(objects) || objects.length === 0) throw new ComponentError('No structured output returned');
    const rows = objects as Record<string, unknown>[];
    return {
      structured_output: createData(rows.length === 1 ? rows[0] : { results: rows }),
      dataframe_output: createTable(rows),
    };
  },
});

async function modelOf(inputs: { llm: unknown; model: unknown; api_key: string }, ctx: ComponentContext): Promise<LanguageModelValue> {
  if (isLanguageModel(inputs.llm)) return inputs.llm;
  if (inputs.llm !== undefined && inputs.llm !== null && inputs.llm !== '') {
    throw new ComponentError('"Language Model" (llm) must be connected to a model\'s Language Model output.');
  }
  if (!usesModelField(inputs.model)) throw new ComponentError('A language model is required: connect a model\'s Language Model output to "Language Model" (llm).');
  const choice = await resolveModelField(inputs.model, { name: 'model', displayName: 'Language Model' }, ctx);
  if (isLanguageModel(choice)) return choice;
  const apiKey = await apiKeyFor(choice.provider, inputs.api_key, ctx);
  return createLanguageModel({ provider: choice.provider, model: choice.model, apiKey, baseURL: resolveBaseURL(choice.provider) });
}
