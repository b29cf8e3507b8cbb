/**
 * Parser: turns a Data (each of its keys) or a table (each row) into text through a template, rows joined by
 * `sep`; or, in Stringify mode, prints the input as Chat Output would.
 */
import { toData } from '../../values/coerce.js';
import { isData, type DataValue } from '../../values/data.js';
import { createMessage, isMessage } from '../../values/message.js';
import { isTable, type TableValue } from '../../values/table.js';
import { ComponentError } from '../component.error.js';
import { defineComponent } from '../contract.js';
import { bool, handle, tab, text } from '../fields.js';
import { chatText } from '../io/chat-text.js';
import { fillFormat, MISSING, parseFormat, TemplateSyntaxError, type FormatPiece } from '../shared/python-format.js';

export const parser = defineComponent({
  type: 'ParserComponent',
  aliases: ['parser'],
  version: 1,
  displayName: 'Parser',
  description: 'Extracts text using a template.',
  category: 'processing',
  icon: 'braces',
  fields: {
    input_data: handle({ displayName: 'Data or DataFrame', info: 'Accepts either a DataFrame or a Data object.', inputTypes: ['DataFrame', 'Data'], required: true }),
    mode: tab({ displayName: 'Mode', info: 'Convert into raw string instead of using a template.', options: ['Parser', 'Stringify'] }),
    pattern: text({
      displayName: 'Template',
      info: 'Use variables within curly brackets to extract column values for DataFrames or key values for Data.For example: `Name: {Name}, Age: {Age}, Country: {Country}`',
      value: 'Text: {text}',
      multiline: true,
      required: true,
    }),
    sep: text({ displayName: 'Separator', info: 'String used to separate rows/items.', value: '\n', advanced: true }),
    clean_data: bool({ displayName: 'Clean Data', info: 'Enable to clean the data by removing empty rows and lines in each cell of the DataFrame/ Data object.', value: true, advanced: true }),
  },
  outputs: [{ name: 'parsed_text', displayName: 'Parsed Text', types: ['Message'], method: 'parse_combined_text' }],
  async run(inputs) {
    const input = inputs.input_data;
    if (input === undefined || input === null || input === '') throw new ComponentError('Field "Data or DataFrame" (input_data): no input; connect a Data or a DataFrame');
    if (inputs.mode === 'Stringify') return { parsed_text: createMessage({ text: chatText(input, inputs.clean_data) }) };

    const pieces = compile(inputs.pattern);
    const lines = isTable(input) ? tableLines(input, pieces) : dataItems(input).map((data) => dataLine(data, pieces));
    return { parsed_text: createMessage({ text: lines.join(inputs.sep) }) };
  },
});

function compile(pattern: string): FormatPiece[] {
  try {
    return parseFormat(pattern);
  } catch (error) {
    if (error instanceof TemplateSyntaxError) throw new ComponentError(`Field "Template" (pattern): ${error.message}`);
    throw error;
  }
}

/** A row missing a column the template names is an error (Langflow raises KeyError there too). */
function tableLines(table: TableValue, pieces: FormatPiece[]): string[] {
  return table.rows.map((row, index) =>
    fill(pieces, (name) => (name in row ? row[name] : MISSING), (name) => {
      throw new ComponentError(`Field "Template" (pattern): row ${index} has no column "${name}"; the columns are ${Object.keys(row).map((c) => `"${c}"`).join(', ') || 'none'}`);
    }),
  );
}

/** A key a Data lacks becomes its default value (usually empty), as in Langflow. */
function dataLine(data: DataValue, pieces: FormatPiece[]): string {
  return fill(pieces, (name) => (name in data.data ? data.data[name] : MISSING), () => data.default_value ?? '');
}

function fill(pieces: FormatPiece[], lookup: (name: string) => unknown, onMissing: (name: string) => string): string {
  try {
    return fillFormat(pieces, lookup, onMissing);
  } catch (error) {
    if (error instanceof TemplateSyntaxError) throw new ComponentError(`Field "Template" (pattern): ${error.message}`);
    throw error;
  }
}

function dataItems(input: unknown): DataValue[] {
  if (isData(input)) return [input];
  if (isMessage(input)) return [toData(input)];
  if (Array.isArray(input) && input.every((item) => isData(item) || isMessage(item))) return input.map((item) => toData(item));
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) return [toData(input)];
  throw new ComponentError(`Field "Data or DataFrame" (input_data): expected a DataFrame or a Data, got ${Array.isArray(input) ? 'a list' : typeof input}`);
}
