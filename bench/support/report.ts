/** Result rows, the printed table and bench/RESULTS.md. */
import { cpus, totalmem } from 'node:os';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface Row {
  scenario: string;
  measure: string;
  value: number;
  unit: string;
  /** The same measure on the baseline, in the same run. */
  baseline?: number;
  baselineName?: string;
  /** value / baseline (for throughput: higher is better). */
  ratio?: number;
  target?: string;
  pass?: boolean;
}

const fmt = (n: number | undefined, digits = 2) => (n === undefined || Number.isNaN(n) ? '' : n >= 100 ? Math.round(n).toString() : n.toFixed(digits));

export function table(rows: Row[]): string {
  const header = ['scenario', 'measure', 'value', 'unit', 'baseline', 'ratio', 'target', 'result'];
  const lines = rows.map((r) => [r.scenario, r.measure, fmt(r.value), r.unit, r.baseline === undefined ? '' : `${fmt(r.baseline)} (${r.baselineName})`, r.ratio === undefined ? '' : fmt(r.ratio, 3), r.target ?? '', r.pass === undefined ? '' : r.pass ? 'pass' : 'MISS']);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const render = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
  return [render(header), render(widths.map((w) => '-'.repeat(w))), ...lines.map(render)].join('\n');
}

export function writeResults(rows: Row[], tool: string): void {
  const machine = `${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  const md = [
    '# Benchmark results',
    '',
    `- date: ${new Date().toISOString()}`,
    `- machine: ${machine}`,
    `- load generator: ${tool}`,
    '',
    '| scenario | measure | value | unit | baseline | ratio | target | result |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.scenario} | ${r.measure} | ${fmt(r.value)} | ${r.unit} | ${r.baseline === undefined ? '' : `${fmt(r.baseline)} (${r.baselineName})`} | ${r.ratio === undefined ? '' : fmt(r.ratio, 3)} | ${r.target ?? ''} | ${r.pass === undefined ? '' : r.pass ? 'pass' : 'MISS'} |`),
    '',
  ].join('\n');
  writeFileSync(fileURLToPath(new URL('../../../bench/RESULTS.md', import.meta.url)), md);
}
