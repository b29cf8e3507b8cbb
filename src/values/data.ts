/** Data (Langflow's "JSON"): an object with an optional text key. */

export interface DataValue {
  kind: 'data';
  data: Record<string, unknown>;
  /** The key whose value is this Data's text. */
  text_key: string;
  default_value: string;
}

export function createData(data: Record<string, unknown>, textKey = 'text'): DataValue {
  return { kind: 'data', data, text_key: textKey, default_value: '' };
}

export const isData = (value: unknown): value is DataValue =>
  typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'data';

/** Data's text: its text key, else the default value (Langflow's get_text). */
export function dataText(value: DataValue): string {
  const text = value.data[value.text_key];
  return text === undefined || text === null ? value.default_value : typeof text === 'string' ? text : JSON.stringify(text);
}
