/** Split Text: cuts the text of a Message, a Data or each row of a table into overlapping chunks (a table). */
import { toData } from '../../values/coerce.js';
import { isData, type DataValue } from '../../values/data.js';
import { isMessage } from '../../values/message.js';
import { createTable, isTable } from '../../values/table.js';
import { ComponentError } from '../component.error.js';
import { defineComponent } from '../contract.js';
import { choice, handle, int, text } from '../fields.js';
import { splitText, type KeepSeparator } from './character-splitter.js';

export const splitTextComponent = defineComponent({
  type: 'SplitText',
  version: 1,
  displayName: 'Split Text',
  description: 'Split text into chunks based on specified criteria.',
  category: 'processing',
  icon: 'scissors-line-dashed',
  fields: {
    data_inputs: handle({ displayName: 'Input', info: 'The data with texts to split in chunks.', inputTypes: ['Data', 'DataFrame', 'Message'], required: true }),
    chunk_overlap: int({ displayName: 'Chunk Overlap', info: 'Number of characters to overlap between chunks.', value: 200, min: 0 }),
    chunk_size: int({ displayName: 'Chunk Size', info: 'The maximum length of each chunk. Text is first split by separator, then chunks are merged up to this size.', value: 1000, min: 0 }),
    separator: text({ displayName: 'Separator', info: 'The character to split on. Use \\n for newline. Examples: \\n\\n for paragraphs, \\n for lines, . for sentences', value: '\n' }),
    text_key: text({ displayName: 'Text Key', info: 'The key to use for the text column.', value: 'text', advanced: true }),
    keep_separator: choice({ displayName: 'Keep Separator', info: 'Whether to keep the separator in the output chunks and where to place it.', options: ['False', 'True', 'Start', 'End'], advanced: true }),
  },
  outputs: [{ name: 'dataframe', displayName: 'Chunks', types: ['DataFrame'], method: 'split_text' }],
  async run(inputs) {
    // A chunk size of 0 means the default, as in Langflow; an overlap of 0 is a real choice.
    const chunkSize = inputs.chunk_size || 1000;
    const chunkOverlap = inputs.chunk_overlap;
    if (chunkOverlap > chunkSize) {
      throw new ComponentError(`Field "Chunk Overlap" (chunk_overlap): ${chunkOverlap} is larger than the chunk size ${chunkSize}; it must be smaller`);
    }
    const options = { separator: separatorOf(inputs.separator), chunkSize, chunkOverlap, keepSeparator: keepOf(inputs.keep_separator) };
    const rows = documentsOf(inputs.data_inputs, inputs.text_key).flatMap(({ text, metadata }) =>
      splitText(text, options).map((chunk) => ({ ...metadata, text: chunk })),
    );
    return { dataframe: createTable(rows) };
  },
});

/** Langflow fixes the common "/n" and "/t" typos, then reads backslash escapes ("\\n" typed in the editor). */
function separatorOf(raw: string): string {
  const fixed = raw === '/n' ? '\n' : raw === '/t' ? '\t' : raw;
  return fixed.replace(/\\(n|t|r|\\)/g, (_, c: string) => ({ n: '\n', t: '\t', r: '\r', '\\': '\\' })[c]!);
}

function keepOf(option: string): KeepSeparator {
  return option === 'False' ? false : option === 'End' ? 'end' : 'start';
}

interface Document {
  text: string;
  metadata: Record<string, unknown>;
}

function documentsOf(input: unknown, textKey: string): Document[] {
  if (input === undefined || input === null || input === '') throw new ComponentError('Field "Input" (data_inputs): no data inputs provided');
  if (isTable(input)) {
    if (input.rows.length === 0) throw new ComponentError('Field "Input" (data_inputs): the DataFrame is empty');
    return input.rows.map((row, index) => documentOf(row, textKey, `row ${index}`));
  }
  const items = Array.isArray(input) ? input : [input];
  return items.map((item, index) => {
    if (!isData(item) && !isMessage(item)) {
      throw new ComponentError(`Field "Input" (data_inputs): expected a Message, a Data or a DataFrame, got ${typeof item}`);
    }
    const data: DataValue = toData(item);
    return documentOf(data.data, textKey, items.length > 1 ? `item ${index}` : 'the input');
  });
}

function documentOf(fields: Record<string, unknown>, textKey: string, where: string): Document {
  if (!(textKey in fields)) {
    throw new ComponentError(`Field "Text Key" (text_key): ${where} has no "${textKey}" key; it has ${Object.keys(fields).map((k) => `"${k}"`).join(', ') || 'none'}`);
  }
  const { [textKey]: value, ...metadata } = fields;
  return { text: typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value), metadata };
}
