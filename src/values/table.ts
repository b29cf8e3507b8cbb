/** Table (Langflow's DataFrame): rows of plain objects; table operations wrap them in arquero when needed. */

export interface TableValue {
  kind: 'table';
  rows: Record<string, unknown>[];
}

export function createTable(rows: Record<string, unknown>[]): TableValue {
  return { kind: 'table', rows };
}

export const isTable = (value: unknown): value is TableValue =>
  typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'table';

/** Column names in first-seen order across all rows. */
export function columnsOf(table: TableValue): string[] {
  const seen = new Set<string>();
  for (const row of table.rows) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
}
