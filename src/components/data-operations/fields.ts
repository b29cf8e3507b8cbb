/**
 * The fields of Data Operations, under Langflow's names: the input type tab, the operation, one input per input
 * type (plus the names of the unified Langflow component, `data_input` and `df_input`), and each operation's
 * parameters with Langflow's defaults. Values are checked loosely here and precisely by the operation that uses
 * them, so an error can name the operation as well as the field.
 */
import { z } from 'zod';
import type { FieldSpec } from '../contract.js';
import { bool, int, str, text } from '../fields.js';
import { JSON_OPERATIONS, TABLE_OPERATIONS, TEXT_OPERATIONS } from './operation-names.js';

type Common = Pick<FieldSpec, 'displayName' | 'info' | 'advanced' | 'show'>;

/** A list of names (keys, columns): a single string is a one-item list. */
function names(options: Common): FieldSpec<string[]> {
  const single = z.string().transform((s) => (s.trim() === '' ? [] : [s]));
  return { schema: z.union([z.array(z.string()), single]).default([]), type: 'str', inputClass: 'MessageTextInput', accepts: 'text', inputTypes: ['Message'], list: true, ...options, value: [] };
}

/** A JSON object typed in the node, or given as JSON text or a list of objects (merged, as Langflow does). */
function jsonObject(options: Common & { value?: Record<string, unknown> }): FieldSpec<Record<string, unknown>> {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const normalise = (value: unknown): unknown => {
    if (typeof value === 'string') {
      if (value.trim() === '') return undefined;
      try {
        return normalise(JSON.parse(value));
      } catch {
        return value;
      }
    }
    if (Array.isArray(value)) return Object.assign({}, ...value.filter(isObject));
    if (isObject(value) && value.kind === 'data' && isObject(value.data)) return value.data;
    return value;
  };
  const schema = z.preprocess(normalise, z.record(z.string(), z.unknown(), { error: 'expected a JSON object' }).default(options.value ?? {}));
  return { schema: schema as unknown as z.ZodType<Record<string, unknown>>, type: 'dict', inputClass: 'DictInput', accepts: 'any', ...options, value: options.value ?? {} };
}

/**
 * A structured input (JSON or Table) that usually arrives on an edge but may also be given as JSON (tweaks, v2
 * flat inputs); its template type keeps such a value (a pure handle's value would be ignored).
 */
function structured(options: Common & { inputClass: string; type: 'dict' | 'table'; inputTypes: string[]; list?: boolean }): FieldSpec<unknown> {
  return { schema: z.unknown(), accepts: 'any', required: false, ...options, value: '' };
}

const operationOptions = [...TEXT_OPERATIONS, ...JSON_OPERATIONS, ...TABLE_OPERATIONS].map((name) => ({ name }));

export const dataOperationsFields = {
  input_type: {
    schema: z.string().optional(),
    type: 'tab',
    inputClass: 'TabInput',
    accepts: 'text',
    displayName: 'Input Type',
    info: 'Which operation set to use: Text (a Message), JSON or Table.',
    options: ['Text', 'JSON', 'Table'],
    value: 'JSON',
  } satisfies FieldSpec<string | undefined>,
  operation: {
    schema: z.unknown(),
    type: 'sortableList',
    inputClass: 'SortableListInput',
    accepts: 'any',
    displayName: 'Operation',
    info: 'The one operation to apply. Chain several components for several operations.',
    placeholder: 'Select Operation',
    // Langflow's sortable list offers {name} objects; the editor reads them as is.
    options: operationOptions as unknown as string[],
    value: [],
  } satisfies FieldSpec<unknown>,

  text_input: text({ displayName: 'Text Input', info: 'The text to process (Text operations).' }),
  data: structured({ displayName: 'JSON', info: 'The JSON input (JSON operations); several for Combine.', inputClass: 'DataInput', type: 'dict', inputTypes: ['Data'], list: true }),
  data_input: structured({ displayName: 'JSON', info: 'Same as JSON (the name used by the unified Langflow component).', inputClass: 'DataInput', type: 'dict', inputTypes: ['Data'], list: true, show: false, advanced: true }),
  df: structured({ displayName: 'Table', info: 'The input Table (Table operations); several for Concatenate.', inputClass: 'DataFrameInput', type: 'table', inputTypes: ['DataFrame'], list: true }),
  df_input: structured({ displayName: 'Table', info: 'Same as Table (the name used by the unified Langflow component).', inputClass: 'DataFrameInput', type: 'table', inputTypes: ['DataFrame'], list: true, show: false, advanced: true }),

  // Text operations
  case_type: str({ displayName: 'Case Type', info: 'Case Conversion: the case to convert to.', options: ['uppercase', 'lowercase', 'title', 'capitalize', 'swapcase'], value: 'lowercase' }),
  search_pattern: str({ displayName: 'Search Pattern', info: 'Text Replace: the text (or regular expression) to find.' }),
  replacement_text: str({ displayName: 'Replacement Text', info: 'Text Replace: what replaces each match (\\1 or \\g<name> for groups in regex mode).' }),
  use_regex: bool({ displayName: 'Use Regex', info: 'Text Replace: treat the search pattern as a (Python) regular expression.', value: false }),
  extract_pattern: str({ displayName: 'Extract Pattern', info: 'Text Extract: regular expression; with groups, the groups are returned.' }),
  max_matches: int({ displayName: 'Max Matches', info: 'Text Extract: how many matches to keep (0 keeps all).', value: 10 }),
  head_characters: int({ displayName: 'Characters from Start', info: 'Text Head: how many characters to keep.', value: 100 }),
  tail_characters: int({ displayName: 'Characters from End', info: 'Text Tail: how many characters to keep.', value: 100 }),
  strip_mode: str({ displayName: 'Strip Mode', info: 'Text Strip: which ends to strip.', options: ['both', 'left', 'right'], value: 'both' }),
  strip_characters: str({ displayName: 'Characters to Strip', info: 'Text Strip: the characters to remove (empty: whitespace).' }),
  text_input_2: text({ displayName: 'Second Text Input', info: 'Text Join: the text joined after the first, on a new line.' }),
  remove_extra_spaces: bool({ displayName: 'Remove Extra Spaces', info: 'Text Clean: collapse each run of whitespace (newlines too) into one space.', value: true }),
  remove_special_chars: bool({ displayName: 'Remove Special Characters', info: 'Text Clean: keep only letters, digits, underscores and whitespace.', value: false }),
  remove_empty_lines: bool({ displayName: 'Remove Empty Lines', info: 'Text Clean: drop blank lines.', value: false }),
  table_separator: str({ displayName: 'Table Separator', info: 'Text to DataFrame: the column separator.', value: '|' }),
  has_header: bool({ displayName: 'Has Header', info: 'Text to DataFrame: the first row names the columns.', value: true, advanced: true }),
  count_words: bool({ displayName: 'Count Words', info: 'Word Count: include word counts.', value: true, advanced: true }),
  count_characters: bool({ displayName: 'Count Characters', info: 'Word Count: include character counts.', value: true, advanced: true }),
  count_lines: bool({ displayName: 'Count Lines', info: 'Word Count: include line counts.', value: true, advanced: true }),

  // JSON operations
  select_keys_input: names({ displayName: 'Select Keys', info: 'Select Keys: the top-level keys to keep.' }),
  filter_key: names({ displayName: 'Filter Key', info: 'Filter Values: the keys holding the lists to filter.' }),
  operator: str({ displayName: 'Comparison Operator', info: 'Filter Values: how items are compared with the filter values.', options: ['equals', 'not equals', 'contains', 'starts with', 'ends with', 'greater than', 'less than'], value: 'equals' }),
  filter_values: jsonObject({ displayName: 'Filter Values', info: 'Filter Values: field → value pairs an item must match (all of them).' }),
  append_update_data: jsonObject({ displayName: 'Append or Update', info: 'Append or Update: keys to add or overwrite.', value: { key: 'value' } }),
  remove_keys_input: names({ displayName: 'Remove Keys', info: 'Remove Keys: keys to remove, at every depth.' }),
  rename_keys_input: jsonObject({ displayName: 'Rename Keys', info: 'Rename Keys: old name → new name, at every depth.', value: { old_key: 'new_key' } }),
  mapped_json_display: str({ displayName: 'JSON to Map', info: 'Path Selection: a JSON example to pick a path from (editor only).', multiline: true }),
  selected_key: str({ displayName: 'Select Path', info: 'Path Selection: a path such as .user.addresses[0].city' }),
  query: text({ displayName: 'JQ Expression', info: 'JQ Expression: a jq program, e.g. .items[] | select(.price > 10)', placeholder: 'e.g., .properties.id' }),

  // Table operations
  column_name: str({ displayName: 'Column Name', info: 'The column to operate on.' }),
  filter_value: text({ displayName: 'Filter Value', info: 'Filter: the value rows are compared with.' }),
  filter_operator: str({ displayName: 'Filter Operator', info: 'Filter: how cells are compared with the filter value.', options: ['equals', 'not equals', 'contains', 'not contains', 'starts with', 'ends with', 'greater than', 'less than'], value: 'equals' }),
  ascending: bool({ displayName: 'Sort Ascending', info: 'Sort: ascending order (empty cells always last).', value: true }),
  new_column_name: str({ displayName: 'New Column Name', info: 'Add Column / Rename Column: the new name.' }),
  new_column_value: text({ displayName: 'New Column Value', info: 'Add Column: the value of every cell of the new column.' }),
  columns_to_select: names({ displayName: 'Columns to Select', info: 'Select Columns: the columns to keep, in order.' }),
  num_rows: int({ displayName: 'Number of Rows', info: 'Head / Tail: how many rows to keep.', value: 5 }),
  replace_value: text({ displayName: 'Value to Replace', info: 'Replace Value: cells equal to this value are replaced.' }),
  replacement_value: text({ displayName: 'Replacement Value', info: 'Replace Value: the new cell value.' }),
  left_dataframe: structured({ displayName: 'Left Table', info: 'Merge: the left table (all its rows are kept by a left merge).', inputClass: 'DataFrameInput', type: 'table', inputTypes: ['DataFrame'] }),
  right_dataframe: structured({ displayName: 'Right Table', info: 'Merge: the right table (all its rows are kept by a right merge).', inputClass: 'DataFrameInput', type: 'table', inputTypes: ['DataFrame'] }),
  merge_on_column: str({ displayName: 'Merge On Column', info: 'Merge: the key column; it must exist in both tables.' }),
  merge_how: str({ displayName: 'Merge Type', info: 'Merge: inner, outer, left or right.', options: ['inner', 'outer', 'left', 'right'], value: 'inner' }),
};

export type DataOperationsFields = typeof dataOperationsFields;
