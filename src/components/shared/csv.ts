/** CSV text to table rows (header line as column names, numbers as numbers), as pandas.read_csv gives Langflow. */
import { parse } from 'csv-parse/sync';

export function parseCsv(text: string): Record<string, unknown>[] {
  return parse(text, { columns: true, cast: true, bom: true, skip_empty_lines: true, trim: false, relax_column_count: true }) as Record<string, unknown>[];
}
