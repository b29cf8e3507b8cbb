/**
 * The operation name table of Data Operations: which operations each input type offers, the older names that
 * still load (Langflow's unified component said "Filter Rows", "Head Rows", "Tail Rows"), and how the `operation`
 * and `input_type` settings are read from a node (a plain string, or Langflow's sortable list `[{"name": ...}]`).
 */
import { ComponentError } from '../component.error.js';

export const INPUT_TYPES = ['Text', 'JSON', 'Table'] as const;
export type InputType = (typeof INPUT_TYPES)[number];

export const TEXT_OPERATIONS = [
  'Word Count', 'Case Conversion', 'Text Replace', 'Text Extract', 'Text Head', 'Text Tail', 'Text Strip', 'Text Join', 'Text Clean', 'Text to DataFrame',
] as const;
export const JSON_OPERATIONS = [
  'Select Keys', 'Literal Eval', 'Combine', 'Filter Values', 'Append or Update', 'Remove Keys', 'Rename Keys', 'Path Selection', 'JQ Expression',
] as const;
export const TABLE_OPERATIONS = [
  'Add Column', 'Concatenate', 'Drop Column', 'Filter', 'Head', 'Merge', 'Rename Column', 'Replace Value', 'Select Columns', 'Sort', 'Tail', 'Drop Duplicates',
] as const;

export type TextOperation = (typeof TEXT_OPERATIONS)[number];
export type JsonOperation = (typeof JSON_OPERATIONS)[number];
export type TableOperation = (typeof TABLE_OPERATIONS)[number];
export type Operation = TextOperation | JsonOperation | TableOperation;

export const OPERATIONS_BY_TYPE: Readonly<Record<InputType, readonly Operation[]>> = {
  Text: TEXT_OPERATIONS,
  JSON: JSON_OPERATIONS,
  Table: TABLE_OPERATIONS,
};

/** Older spellings that still load. */
const LEGACY_NAMES: Readonly<Record<string, Operation>> = { 'Filter Rows': 'Filter', 'Head Rows': 'Head', 'Tail Rows': 'Tail' };

/** The input type names of every Langflow version (tabs were Text/Data/DataFrame before 1.11). */
const INPUT_TYPE_NAMES: Readonly<Record<string, InputType>> = {
  text: 'Text', message: 'Text',
  json: 'JSON', data: 'JSON',
  table: 'Table', dataframe: 'Table',
};

const OWNER = new Map<string, InputType>();
for (const type of INPUT_TYPES) for (const op of OPERATIONS_BY_TYPE[type]) OWNER.set(op, type);

/** The input type an operation belongs to. */
export const ownerOf = (operation: Operation): InputType => OWNER.get(operation)!;

/** The operation named by the setting: `''` when none is chosen (Langflow then passes the input through). */
export function operationName(setting: unknown): Operation | '' {
  const raw = rawName(setting).trim();
  if (raw === '') return '';
  const name = LEGACY_NAMES[raw] ?? raw;
  if (OWNER.has(name)) return name as Operation;
  throw new ComponentError(`Unknown operation "${raw}" (operation). Known operations: Text: ${TEXT_OPERATIONS.join(', ')}; JSON: ${JSON_OPERATIONS.join(', ')}; Table: ${TABLE_OPERATIONS.join(', ')}`);
}

function rawName(setting: unknown): string {
  if (setting === undefined || setting === null) return '';
  if (typeof setting === 'string') return setting;
  if (Array.isArray(setting)) return setting.length === 0 ? '' : rawName(setting[0]);
  if (typeof setting === 'object' && typeof (setting as { name?: unknown }).name === 'string') return (setting as { name: string }).name;
  throw new ComponentError(`The operation setting must be a name or a list like [{"name": "Word Count"}], got ${JSON.stringify(setting)}`);
}

/**
 * The input type to run with. An explicit setting wins (and must own the operation). Without one (nodes of the
 * older TextOperations, DataFrameOperations and DataOperations types carry no such field), it follows from the
 * operation, whose names are unique across the three sets, or else from the input that is connected.
 */
export function resolveInputType(setting: string | undefined, operation: Operation | '', connected: () => { text: boolean; table: boolean }): InputType {
  const explicit = setting === undefined || setting.trim() === '' ? undefined : INPUT_TYPE_NAMES[setting.trim().toLowerCase()];
  if (setting !== undefined && setting.trim() !== '' && !explicit) {
    throw new ComponentError(`Unknown input type "${setting}" (input_type); use one of ${INPUT_TYPES.join(', ')}`);
  }
  if (explicit && operation && ownerOf(operation) !== explicit) {
    throw new ComponentError(`Operation "${operation}" is a ${ownerOf(operation)} operation, but the input type is ${explicit} (input_type). ${explicit} operations: ${OPERATIONS_BY_TYPE[explicit].join(', ')}`);
  }
  if (explicit) return explicit;
  if (operation) return ownerOf(operation);
  const { text, table } = connected();
  if (table) return 'Table';
  if (text) return 'Text';
  return 'JSON';
}
