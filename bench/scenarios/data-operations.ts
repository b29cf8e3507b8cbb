/**
 * Data Operations overhead, in-process: Sort, Filter, Merge and Drop Duplicates on a 100,000-row table through the
 * component (inputs resolved as the engine does, rows in and out) against the same arquero verbs called directly
 * (rows in, objects out); and a jq query over a 10 MB document through the component (sandbox worker, results
 * parsed and wrapped) against jq-wasm's engine called directly in this thread. jq-wasm's own `raw()` cannot take
 * 10 MB (its stdin is quadratic), so the direct call goes through the same loader the component uses; one more
 * row shows `raw()` on 100 KB against that loader. Best of alternating runs (the fastest run is the one least
 * disturbed by whatever else the shared machine does); target ratio <= 1.2.
 */
import * as aq from 'arquero';
import * as jqWasm from 'jq-wasm';
import type { ComponentContext, ComponentDefinition, FieldMap } from '../../src/components/contract.js';
import { dataOperations } from '../../src/components/data-operations/definition.js';
import { jqEngine } from '../../src/components/data-operations/jq-engine.js';
import { parseResults } from '../../src/components/data-operations/jq-query.js';
import type { GraphVertex } from '../../src/engine/graph.js';
import { resolveInputs } from '../../src/engine/resolve-inputs.js';
import { variableResolver } from '../../src/engine/variables.js';
import { createLogger } from '../../src/logger.js';
import { createData } from '../../src/values/data.js';
import { createTable } from '../../src/values/table.js';
import type { Row } from '../support/report.js';

const ROWS = 100_000;
/** Runs per side; the shared machines are noisy, so enough for a clean fastest run. */
const RUNS = 25;
const TARGET = 1.2;

const component = dataOperations as unknown as ComponentDefinition<FieldMap>;

async function throughComponent(params: Record<string, unknown>, edges: Record<string, unknown>, output: string): Promise<unknown> {
  const vertex: GraphVertex = { id: 'DataOperations-bench', type: 'DataOperations', displayName: 'Data Operations', component, params, variableFields: new Set(), dynamicFields: [] };
  const { inputs, dynamic } = await resolveInputs(vertex, edges, undefined, variableResolver({}));
  const context: ComponentContext = {
    signal: new AbortController().signal,
    emit: () => {},
    logger: createLogger('silent'),
    run: { flowId: 'bench', flowName: 'bench', sessionId: 'bench', userId: 'bench', vertexId: vertex.id, displayName: vertex.displayName },
    variable: async () => '',
    memory: { store: async (m) => m, recent: async () => [] },
    sourceOf: () => undefined,
    requested: new Set([output]),
    dynamic,
  };
  return (await component.run(inputs as never, context))[output];
}

/** The fastest of `runs` alternating runs of each, in milliseconds (after one warm-up of each). */
async function compare(measure: () => Promise<unknown>, baseline: () => Promise<unknown>, runs = RUNS): Promise<{ value: number; base: number }> {
  await measure();
  await baseline();
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < runs; i++) {
    for (const [fn, into] of i % 2 ? ([[baseline, b], [measure, a]] as const) : ([[measure, a], [baseline, b]] as const)) {
      const started = performance.now();
      await fn();
      into.push(performance.now() - started);
    }
  }
  return { value: Math.min(...a), base: Math.min(...b) };
}

function row(measure: string, result: { value: number; base: number }, baselineName: string, target = true): Row {
  const ratio = result.value / result.base;
  return { scenario: 'data-operations', measure, value: result.value, unit: 'ms', baseline: result.base, baselineName, ratio, ...(target ? { target: `<= ${TARGET}`, pass: ratio <= TARGET } : {}) };
}

export async function dataOperationsScenario(): Promise<Row[]> {
  const cities = ['Paris', 'Lyon', 'Nice', 'Lille', 'Nantes'];
  const rows = Array.from({ length: ROWS }, (_, i) => ({ id: i, name: `n${i % 5000}`, score: (i * 7919) % 1000, city: cities[i % cities.length] }));
  const people = createTable(rows);
  const regions = Array.from({ length: 5000 }, (_, i) => ({ name: `n${i}`, region: `r${i % 17}` }));
  const objects = (t: ReturnType<typeof aq.from>) => t.objects();
  const results: Row[] = [];

  const table = (params: Record<string, unknown>, edges: Record<string, unknown> = { df: [people] }) => () => throughComponent({ input_type: 'Table', ...params }, edges, 'dataframe');
  results.push(row('Sort 100k rows', await compare(table({ operation: 'Sort', column_name: 'score', ascending: false }), async () => objects(aq.from(rows).orderby(aq.desc('score')))), 'arquero orderby'));
  results.push(
    row('Filter 100k rows', await compare(table({ operation: 'Filter', column_name: 'score', filter_operator: 'greater than', filter_value: '500' }), async () => objects(aq.from(rows).params({ v: 500 }).filter((d: { score: number }, $: { v: number }) => d.score > $.v))), 'arquero filter'),
  );
  results.push(
    row('Merge 100k x 5k rows (left)', await compare(table({ operation: 'Merge', merge_on_column: 'name', merge_how: 'left' }, { left_dataframe: people, right_dataframe: createTable(regions) }), async () => objects(aq.from(rows).join_left(aq.from(regions), 'name'))), 'arquero join_left'),
  );
  results.push(row('Drop Duplicates 100k rows', await compare(table({ operation: 'Drop Duplicates', column_name: 'name' }), async () => objects(aq.from(rows).dedupe('name'))), 'arquero dedupe'));

  const document = { items: Array.from({ length: 80_000 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ['a', 'b', 'c'], price: (i * 37) % 500, stock: i % 7, supplier: { name: `s${i % 300}`, country: cities[i % 5] } })) };
  const query = '[.items[] | select(.price > 450 and .stock > 0) | {id, name, country: .supplier.country}]';
  const megabytes = JSON.stringify(document).length / 1e6;
  const engine = await jqEngine();
  const direct = async () => parseResults(engine.run(new TextEncoder().encode(JSON.stringify(document)), query).stdout);
  const data = createData(document);
  results.push(row(`JQ over ${megabytes.toFixed(1)} MB`, await compare(() => throughComponent({ operation: 'JQ Expression', query }, { data }, 'data_output'), direct, 11), 'jq-wasm engine in-thread'));

  const small = JSON.stringify({ items: document.items.slice(0, 800) });
  const ownRaw = await compare(async () => jqWasm.raw(small, '.items | length'), async () => engine.run(new TextEncoder().encode(small), '.items | length'), 1);
  results.push(row(`jq-wasm raw() over ${(small.length / 1e3).toFixed(0)} KB (why the loader)`, ownRaw, 'same query, our loader', false));
  return results;
}
