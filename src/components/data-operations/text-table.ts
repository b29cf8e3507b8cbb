/**
 * Text to DataFrame: delimited lines (markdown-style tables by default) become a Table, as Langflow builds it:
 * blank lines are dropped, separator characters are stripped from both ends of a line, cells are trimmed, the
 * first row names the columns when there is a header and more than one row (otherwise col_0, col_1, ...), and a
 * column whose cells are all numbers becomes numeric. A markdown `|---|` rule is kept as a data row, as Langflow does.
 */
import { createTable, type TableValue } from '../../values/table.js';
import { ComponentError } from '../component.error.js';
import { isBlank, strip } from './python-text.js';

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

export function textToTable(text: string, separator: string, hasHeader: boolean): TableValue {
  if (separator === '') throw new ComponentError('Text to DataFrame: the Table Separator (table_separator) must not be empty');
  const lines = text.split('\n').map((line) => strip(line, '', 'both')).filter((line) => !isBlank(line));
  const rows = lines.map((line) => strip(line, separator, 'both').split(separator).map((cell) => strip(cell, '', 'both')));
  if (rows.length === 0) return createTable([]);

  let columns: string[];
  let body: string[][];
  if (hasHeader && rows.length > 1) {
    [columns, ...body] = rows;
    body.forEach((row, i) => {
      if (row.length !== columns.length) {
        throw new ComponentError(
          `Text to DataFrame: header mismatch: ${columns.length} column(s) in the header vs ${row.length} in data row ${i + 1}. Make the header (has_header) match the data, or change the separator (table_separator).`,
        );
      }
    });
  } else {
    const width = Math.max(...rows.map((row) => row.length));
    columns = Array.from({ length: width }, (_, i) => `col_${i}`);
    body = rows;
  }

  const numeric = columns.map((_, c) => body.every((row) => row[c] === undefined || NUMBER.test(row[c])) && body.some((row) => row[c] !== undefined));
  return createTable(
    body.map((row) => {
      const record: Record<string, unknown> = {};
      columns.forEach((name, c) => {
        const cell = row[c];
        record[name] = cell === undefined ? null : numeric[c] ? Number(cell) : cell;
      });
      return record;
    }),
  );
}
