/** How Chat Output turns what it receives into text (Langflow's safe_convert). */
import { isData } from '../../values/data.js';
import { isMessage } from '../../values/message.js';
import { columnsOf, isTable, type TableValue } from '../../values/table.js';
import { ComponentError } from '../component.error.js';

export function chatText(value: unknown, cleanData: boolean): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return cleanData ? cleanText(value) : value;
  if (isMessage(value)) return value.text;
  if (isData(value)) return '```json\n' + JSON.stringify(value.data, null, 2) + '\n```';
  if (isTable(value)) return markdownTable(value, cleanData);
  if (Array.isArray(value)) return value.map((item) => chatText(item, cleanData)).join('\n');
  throw new ComponentError(`Expected Data or DataFrame or Message or str, Generator or None, got ${typeof value}`);
}

/** Blank whitespace-only lines and collapse three or more newlines into two. */
function cleanText(text: string): string {
  return text
    .split('\n')
    .map((line) => (line.trim() === '' ? '' : line))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}

function markdownTable(table: TableValue, dropEmpty: boolean): string {
  const rows = dropEmpty ? table.rows.filter((row) => Object.values(row).some((v) => v !== null && v !== undefined && v !== '')) : table.rows;
  const columns = columnsOf(table);
  const cell = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v)).replace(/\|/g, '\\|');
  const lines = [`| ${columns.join(' | ')} |`, `|${columns.map(() => ':---').join('|')}|`];
  for (const row of rows) lines.push(`| ${columns.map((c) => cell(row[c])).join(' | ')} |`);
  return lines.join('\n');
}

