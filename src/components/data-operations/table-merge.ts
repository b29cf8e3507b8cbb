/**
 * Merge: pandas' `merge(left, right, on=key, how=...)` in arquero (a lookup when each key is on the right at most
 * once, else a join). A column both tables have (other than the key) is kept once, with the left value unless it
 * is empty (pandas' suffix then combine_first, as Langflow does).
 * Row order follows pandas: inner and left merges in left-table order, right merges in right-table order, outer
 * merges sorted by key. Without a left table the result is empty; without a right table it is the left table.
 */
import { arquero } from '../shared/heavy-modules.js';
import type { ColumnTable } from 'arquero';
import { createTable, type TableValue } from '../../values/table.js';
import { ComponentError } from '../component.error.js';
import { cellsOf, fromArquero, isPresent, requireColumn, tableColumns, toArquero } from './arquero-table.js';

const HOWS = ['inner', 'left', 'right', 'outer'] as const;
const ROW = '\u0000row';
const RIGHT_SUFFIX = '\u0000right';

export function mergeTables(left: TableValue | undefined, right: TableValue | undefined, key: string, how: string): TableValue {
  if (!HOWS.includes(how as (typeof HOWS)[number])) throw new ComponentError(`Merge: unknown merge type "${how}" (merge_how); use ${HOWS.join(', ')}`);
  if (!left) return createTable([]);
  if (!right) return left;
  if (key === '') throw new ComponentError('Merge: choose the key column (merge_on_column); it must exist in both tables');
  const leftColumns = tableColumns(left);
  const rightColumns = tableColumns(right);
  const l = toArquero(left, leftColumns);
  const r = toArquero(right, rightColumns);
  requireColumn(l, key, 'Merge', 'merge_on_column', 'the left table');
  requireColumn(r, key, 'Merge', 'merge_on_column', 'the right table');

  const shared = rightColumns.filter((c) => c !== key && leftColumns.includes(c));
  const columns = [...leftColumns, ...rightColumns.filter((c) => c !== key && !leftColumns.includes(c))];
  let joined = (how === 'left' || how === 'inner') && uniqueKeys(r, key) ? lookupMerge(l, r, key, how, shared) : joinMerge(l, r, key, how as (typeof HOWS)[number]);
  if (shared.length > 0) {
    const folded = Object.fromEntries(
      shared.map((c) => [c, arquero.get().escape((d: Record<string, unknown>) => (isPresent(d[c]) ? d[c] : d[c + RIGHT_SUFFIX]))]),
    );
    joined = joined.derive(folded);
  }
  return fromArquero(joined.select(columns));
}

/**
 * The common case, rows enriched from a lookup table (each key at most once on the right): arquero's lookup keeps
 * the left table as it is, in its order, and only builds the added columns.
 */
function lookupMerge(l: ColumnTable, r: ColumnTable, key: string, how: 'left' | 'inner', shared: string[]): ColumnTable {
  const right = shared.length > 0 ? r.rename(Object.fromEntries(shared.map((c) => [c, c + RIGHT_SUFFIX]))) : r;
  const added = right.columnNames().filter((c) => c !== key);
  const looked = l.lookup(right, key, ...added);
  if (how === 'left') return looked;
  const keys = new Set(r.array(key) as ArrayLike<unknown> as unknown[]);
  return looked.filter(arquero.get().escape((d: Record<string, unknown>) => isPresent(d[key]) && keys.has(d[key])));
}

/**
 * Any other merge is a join, ordered as pandas orders it by one row-number column: the left table's (the right's
 * for a right merge). arquero's sort is stable and a join emits the matches of a row in the other table's order,
 * so ties come out as pandas has them.
 */
function joinMerge(l: ColumnTable, r: ColumnTable, key: string, how: (typeof HOWS)[number]): ColumnTable {
  const byRight = how === 'right';
  const numbered = (t: ColumnTable) => t.derive({ [ROW]: 'd => op.row_number()' });
  const join = { inner: 'join', left: 'join_left', right: 'join_right', outer: 'join_full' } as const;
  const joined: ColumnTable = (byRight ? l : numbered(l))[join[how]](byRight ? numbered(r) : r, key, undefined, { suffix: ['', RIGHT_SUFFIX] });
  if (how === 'outer') return joined.orderby(key, ROW);
  return ascending(joined, ROW) ? joined : joined.orderby(ROW);
}

/** Whether no key appears twice in the table (empty keys never match, so they do not count). */
function uniqueKeys(table: ColumnTable, key: string): boolean {
  const cells = cellsOf(table, key);
  const seen = new Set<unknown>();
  for (let i = 0; i < cells.length; i++) {
    const value = cells.at(i);
    if (!isPresent(value)) continue;
    if (seen.has(value)) return false;
    seen.add(value);
  }
  return true;
}

/** Whether the join already produced rows in row-number order (as it does when every row found a match). */
function ascending(table: ColumnTable, column: string): boolean {
  const rows = cellsOf(table, column);
  let previous = -Infinity;
  for (let i = 0; i < rows.length; i++) {
    const row = rows.at(i);
    if (typeof row !== 'number' || row < previous) return false;
    previous = row;
  }
  return true;
}
