/**
 * How Python's str() and repr() print the values Langflow templates interpolate, so formatted text reads the same
 * as Langflow's: True/False/None, inf/nan, and Messages and Data by their text.
 */
import { dataText, isData } from '../../values/data.js';
import { isMessage } from '../../values/message.js';
import { isTable } from '../../values/table.js';

export function pyStr(value: unknown): string {
  if (value === undefined || value === null) return 'None';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return pyNumber(value);
  if (typeof value === 'bigint') return value.toString();
  if (isMessage(value)) return value.text;
  if (isData(value)) return dataText(value) || JSON.stringify(value.data);
  if (isTable(value)) return JSON.stringify(value.rows);
  return JSON.stringify(value);
}

export function pyRepr(value: unknown): string {
  if (typeof value !== 'string') return pyStr(value);
  const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
  const escaped = value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
  return quote + (quote === "'" ? escaped.replace(/'/g, "\\'") : escaped) + quote;
}

function pyNumber(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (n === Infinity) return 'inf';
  if (n === -Infinity) return '-inf';
  return String(n);
}
