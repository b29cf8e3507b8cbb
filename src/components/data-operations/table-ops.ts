/**
 * The Table operations (input `df`; several tables for Concatenate, `left_dataframe` / `right_dataframe` for
 * Merge), each one an arquero verb. Operations other than Concatenate and Merge use the first table connected.
 */
import { arquero } from '../shared/heavy-modules.js';
import type { ColumnTable } from 'arquero';
import { createTable, type TableValue } from '../../values/table.js';
import { ComponentError } from '../component.error.js';
import type { InputsOf } from '../contract.js';
import { cellsOf, fromArquero, isNumericColumn, isPresent, requireColumn, tableColumns, toArquero } from './arquero-table.js';
import { comparer, COMPARISONS, type Comparison } from './compare.js';
import type { DataOperationsFields } from './fields.js';
import type { TableOperation } from './operation-names.js';
import type { OpResult } from './results.js';
import { tableItems } from './structured-input.js';
import { mergeTables } from './table-merge.js';

type Inputs = InputsOf<DataOperationsFields>;

export function runTableOperation(operation: TableOperation, inputs: Inputs): OpResult {
  const tables = tableItems('df', inputs.df, inputs.df_input);
  if (operation === 'Concatenate') return { kind: 'table', table: concatenate(tables) };
  if (operation === 'Merge') {
    const [left] = tableItems('left_dataframe', inputs.left_dataframe);
    const [right] = tableItems('right_dataframe', inputs.right_dataframe);
    return { kind: 'table', table: mergeTables(left ?? tables[0], right ?? tables[1], inputs.merge_on_column, inputs.merge_how) };
  }
  const first = tables[0] ?? createTable([]);
  // A table without rows has no columns either (rows carry them), so column operations have nothing to act on.
  if (first.rows.length === 0) return { kind: 'table', table: first };
  return { kind: 'table', table: fromArquero(apply(operation, toArquero(first), inputs)) };
}

function apply(operation: Exclude<TableOperation, 'Concatenate' | 'Merge'>, table: ColumnTable, inputs: Inputs): ColumnTable {
  const column = inputs.column_name;
  switch (operation) {
    case 'Add Column': {
      if (inputs.new_column_name === '') throw new ComponentError('Add Column: the new column needs a name (new_column_name)');
      return table.assign({ [inputs.new_column_name]: new Array(table.numRows()).fill(inputs.new_column_value) });
    }
    case 'Drop Column':
      requireColumn(table, column, operation, 'column_name');
      return table.select(arquero.get().not(column));
    case 'Filter':
      requireColumn(table, column, operation, 'column_name');
      return filter(table, column, inputs.filter_operator, inputs.filter_value);
    case 'Head':
      return table.slice(0, rowCount(operation, inputs.num_rows));
    case 'Tail': {
      const n = rowCount(operation, inputs.num_rows);
      return n === 0 ? table.slice(0, 0) : table.slice(-n);
    }
    case 'Rename Column': {
      requireColumn(table, column, operation, 'column_name');
      const name = inputs.new_column_name;
      if (name === '') throw new ComponentError('Rename Column: the new name (new_column_name) must not be empty');
      if (name !== column && table.columnNames().includes(name)) throw new ComponentError(`Rename Column: a column "${name}" (new_column_name) already exists`);
      return table.rename({ [column]: name });
    }
    case 'Replace Value': {
      requireColumn(table, column, operation, 'column_name');
      const matches = comparer('equals', inputs.replace_value, isNumericColumn(table, column));
      const replacement = inputs.replacement_value;
      return table.derive({ [column]: arquero.get().escape((d: Record<string, unknown>) => (matches(d[column]) ? replacement : d[column])) });
    }
    case 'Select Columns': {
      const wanted = inputs.columns_to_select.map((name) => name.trim());
      const names = table.columnNames();
      const missing = wanted.filter((name) => !names.includes(name));
      if (missing.length > 0) throw new ComponentError(`Select Columns: column(s) ${missing.map((n) => `"${n}"`).join(', ')} (columns_to_select) not found. Available columns: ${JSON.stringify(names)}`);
      return table.select(wanted);
    }
    case 'Sort':
      requireColumn(table, column, operation, 'column_name');
      return sort(table, column, inputs.ascending);
    case 'Drop Duplicates':
      requireColumn(table, column, operation, 'column_name');
      return table.dedupe(column);
  }
}

function filter(table: ColumnTable, column: string, operator: string, value: string): ColumnTable {
  if (!COMPARISONS.includes(operator as Comparison)) {
    throw new ComponentError(`Filter: unknown operator "${operator}" (filter_operator); use one of ${COMPARISONS.join(', ')}`);
  }
  // Only equality cares whether the column is numeric (ordering compares numbers whenever both sides are).
  const numeric = (operator === 'equals' || operator === 'not equals') && isNumericColumn(table, column);
  const test = comparer(operator as Comparison, value, numeric);
  return table.filter(arquero.get().escape((d: Record<string, unknown>) => test(d[column])));
}

/** pandas order: empty cells last in both directions. */
function sort(table: ColumnTable, column: string, ascending: boolean): ColumnTable {
  const key = ascending ? column : arquero.get().desc(column);
  const cells = cellsOf(table, column);
  let hasEmpty = false;
  for (let i = 0; i < cells.length && !hasEmpty; i++) hasEmpty = !isPresent(cells.at(i));
  if (!hasEmpty) return table.orderby(key);
  const present = arquero.get().escape((d: Record<string, unknown>) => isPresent(d[column]));
  const empty = arquero.get().escape((d: Record<string, unknown>) => !isPresent(d[column]));
  // concat reads rows in storage order, so the sorted part is materialised first.
  return table.filter(present).orderby(key).reify().concat(table.filter(empty));
}

function rowCount(operation: string, n: number): number {
  if (n < 0) throw new ComponentError(`${operation}: Number of Rows (num_rows) must be non-negative, got ${n}`);
  return n;
}

/** Rows stacked in order; the columns are the union of all tables' columns. */
function concatenate(tables: TableValue[]): TableValue {
  if (tables.length <= 1) return tables[0] ?? createTable([]);
  const columns = [...new Set(tables.flatMap((t) => tableColumns(t)))];
  const [first, ...rest] = tables.map((t) => toArquero(t, columns));
  return fromArquero(first.concat(...rest));
}
