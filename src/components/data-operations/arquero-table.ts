/**
 * Tables in and out of arquero. Our Table value is rows of objects whose keys may differ from row to row, so the
 * columns are the union of all keys (arquero alone would take the first row's); a missing cell comes back as
 * null (pandas' NaN), never as an absent key.
 */
import { arquero } from '../shared/heavy-modules.js';
import type { ColumnTable } from 'arquero';
import { createTable, type TableValue } from '../../values/table.js';
import { ComponentError } from '../component.error.js';

export function toArquero(table: TableValue, columns: string[] = tableColumns(table)): ColumnTable {
  return arquero.get().from(table.rows, columns);
}

/**
 * The union of the rows' keys in first-seen order. Rows usually share the first row's keys in the same order, so
 * each key is first compared with the expected one; only a row that differs pays for the set lookups.
 */
export function tableColumns(table: TableValue): string[] {
  const names = Object.keys(table.rows[0] ?? {});
  const known = new Set(names);
  const expected = names.length;
  for (const row of table.rows) {
    let matched = 0;
    for (const key in row) {
      if (matched < expected && key === names[matched]) {
        matched++;
        continue;
      }
      matched = expected + 1;
      if (!known.has(key)) {
        known.add(key);
        names.push(key);
      }
    }
  }
  return names;
}

export function fromArquero(table: ColumnTable): TableValue {
  const names = table.columnNames();
  const build = rowBuilder(names, names.map((name) => table.column(name)!));
  const rows: Record<string, unknown>[] = new Array(table.numRows());
  let next = 0;
  table.scan((row) => {
    rows[next++] = build(row!);
  }, true);
  return createTable(rows);
}

type Column = { at(row: number): unknown };
const orNull = (value: unknown) => (value === undefined ? null : value);

/**
 * A row-object maker for these columns, generated as one object literal (as arquero's objects() does, so every
 * row gets the same shape) with missing cells as null. Keys are computed string literals: no name can inject code
 * or set a prototype.
 */
function rowBuilder(names: string[], columns: Column[]): (row: number) => Record<string, unknown> {
  const locals = names.map((_, i) => `const c${i} = columns[${i}];`).join('\n');
  const fields = names.map((name, i) => `[${JSON.stringify(name)}]: orNull(c${i}.at(row))`).join(', ');
  return new Function('orNull', 'columns', `${locals}\nreturn (row) => ({ ${fields} });`)(orNull, columns);
}

/** The column must be named and exist; the error lists the columns there are. */
export function requireColumn(table: ColumnTable, column: string, operation: string, field: string, which = 'the table'): void {
  const names = table.columnNames();
  if (column === '') throw new ComponentError(`${operation}: choose a column (${field}). Available columns: ${JSON.stringify(names)}`);
  if (!names.includes(column)) throw new ComponentError(`${operation}: column "${column}" (${field}) not found in ${which}. Available columns: ${JSON.stringify(names)}`);
}

/** A column's cells in table order; read in place when the table is neither filtered nor ordered. */
export function cellsOf(table: ColumnTable, name: string): { length: number; at(row: number): unknown } {
  if (table.isFiltered() || table.isOrdered()) {
    const values = table.array(name) as unknown[];
    return { length: values.length, at: (row) => values[row] };
  }
  const column = table.column(name)!;
  return { length: table.numRows(), at: (row) => column.at(row) };
}

/** pandas' numeric dtype: every present cell is a number (booleans are not numbers). */
export function isNumericColumn(table: ColumnTable, column: string): boolean {
  const cells = cellsOf(table, column);
  let any = false;
  for (let i = 0; i < cells.length; i++) {
    const value = cells.at(i);
    if (value === null || value === undefined) continue;
    if (typeof value !== 'number') return false;
    any = true;
  }
  return any;
}

export const isPresent = (value: unknown): boolean => value !== null && value !== undefined && !Number.isNaN(value);
