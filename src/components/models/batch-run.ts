/**
 * Batch Run (Langflow's BatchRunComponent): asks a model once per row of a table, each row's text being its
 * `column_name` cell, or the whole row as TOML when no column is named, and answers the table with the reply in
 * `output_column_name` and `batch_index` beside the row's own columns (plus `metadata` with `enable_metadata`).
 * Rows are asked a few at a time (Langflow's `abatch` asks them concurrently), and kept in their order.
 */
import { isLanguageModel, type LanguageModelValue } from '../../values/language-model.js';
import { createMessage } from '../../values/message.js';
import { columnsOf, createTable, isTable } from '../../values/table.js';
import { ComponentError } from '../component.error.js';
import { defineComponent, type ComponentContext } from '../contract.js';
import { bool, handle, secret, text } from '../fields.js';
import { chatPrompt } from './chat-prompt.js';
import { runChat } from './model-call.js';
import { modelInput } from './model-fields.js';
import { apiKeyFor, resolveModelField } from './model-selection.js';
import { createLanguageModel, resolveBaseURL } from './providers.js';

/** How many rows are asked at once. */
const CONCURRENT_ROWS = 4;

export const batchRun = defineComponent({
  type: 'BatchRunComponent',
  version: 1,
  displayName: 'Batch Run',
  description: 'Runs a language model over each row of a DataFrame’s text column and returns a new DataFrame with the original columns plus the model response column.',
  category: 'models',
  icon: 'List',
  fields: {
    model: modelInput({ displayName: 'Language Model', info: 'Select your model provider', required: true }),
    api_key: secret({ displayName: 'API Key', info: 'Model Provider API key', value: '', loadFromDb: false, advanced: true }),
    system_message: text({ displayName: 'Instructions', info: 'Multi-line system instruction for all rows in the DataFrame.', multiline: true }),
    df: handle({ displayName: 'DataFrame', info: 'The DataFrame whose column (specified by "column_name") will be treated as text messages.', inputTypes: ['DataFrame', 'Table'], required: true }),
    column_name: text({ displayName: 'Column Name', info: 'The name of the DataFrame column to treat as text messages. If empty, all columns will be formatted in TOML.' }),
    output_column_name: text({ displayName: 'Output Column Name', info: 'Name of the column where the model response will be stored.', value: 'model_response', advanced: true }),
    enable_metadata: bool({ displayName: 'Enable Metadata', info: 'If True, add metadata to the output DataFrame.', advanced: true }),
  },
  outputs: [{ name: 'batch_results', displayName: 'Results', types: ['Table'], method: 'run_batch' }],
  async run(inputs, ctx) {
    const table = Array.isArray(inputs.df) ? inputs.df[0] : inputs.df;
    if (!isTable(table)) throw new ComponentError(`Field "DataFrame" (df): expected DataFrame input, got ${table === undefined || table === '' ? 'nothing' : typeof table}`);
    const column = inputs.column_name;
    if (column && !columnsOf(table).includes(column)) {
      throw new ComponentError(`Column '${column}' not found in the DataFrame. Available columns: ${columnsOf(table).join(', ')}`);
    }
    const model = await modelOf(inputs.model, inputs.api_key, ctx);
    const texts = table.rows.map((row) => (column ? cellText(row[column]) : rowAsToml(row)));
    const replies = await inOrder(texts, (text) => runChat(model, chatPrompt(createMessage({ text }), inputs.system_message), ctx).then((reply) => reply.text));
    const outputColumn = inputs.output_column_name || 'model_response';
    const rows = table.rows.map((row, index) => {
      const out: Record<string, unknown> = { ...row, [outputColumn]: replies[index], batch_index: index };
      if (inputs.enable_metadata) {
        out.metadata = { has_system_message: Boolean(inputs.system_message), input_length: cellText(row.text_input ?? '').length, response_length: replies[index]!.length, processing_status: 'success' };
      }
      return out;
    });
    return { batch_results: createTable(rows) };
  },
});

async function modelOf(field: unknown, apiKey: string, ctx: ComponentContext): Promise<LanguageModelValue> {
  const choice = await resolveModelField(field, { name: 'model', displayName: 'Language Model' }, ctx);
  if (isLanguageModel(choice)) return choice;
  const key = await apiKeyFor(choice.provider, apiKey, ctx);
  return createLanguageModel({ provider: choice.provider, model: choice.model, apiKey: key, baseURL: resolveBaseURL(choice.provider), settings: {} });
}

/** Each text's result, in the texts' order, at most CONCURRENT_ROWS at a time; the first failure fails them all. */
async function inOrder(texts: readonly string[], ask: (text: string) => Promise<string>): Promise<string[]> {
  const results: string[] = new Array(texts.length);
  let next = 0;
  const worker = async () => {
    while (next < texts.length) {
      const index = next++;
      results[index] = await ask(texts[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENT_ROWS, texts.length) }, worker));
  return results;
}

const cellText = (value: unknown) => (typeof value === 'string' ? value : value === null || value === undefined ? 'None' : typeof value === 'object' ? JSON.stringify(value) : String(value));

/** A row as Langflow formats it without a column: a TOML table per column, its `value` the cell as text. */
function rowAsToml(row: Record<string, unknown>): string {
  const key = (name: string) => (/^[A-Za-z0-9_-]+$/.test(name) ? name : JSON.stringify(name));
  return Object.entries(row)
    .map(([name, value]) => `[${key(name)}]\nvalue = ${JSON.stringify(cellText(value))}\n`)
    .join('\n');
}
