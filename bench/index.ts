/**
 * `npm run bench [-- <scenario> ...]`: runs the scenarios and prints one table; a run of every scenario also writes
 * bench/RESULTS.md (a run of a few leaves the last full record alone rather than replace it with a part).
 * Every figure is a ratio against a baseline measured in the same run (these machines are shared and noisy), or
 * an absolute measure with a target (memory per stream, start-up time, RSS). BENCH_SECONDS sizes the fixed-time
 * loads; BENCH_STREAMS and BENCH_HISTORY shrink the streams and history scenarios while developing.
 */
import { buildScenario } from './scenarios/build.js';
import { clusterScenario } from './scenarios/cluster.js';
import { customComponentsScenario } from './scenarios/custom-components.js';
import { dataOperationsScenario } from './scenarios/data-operations.js';
import { edgeScenario } from './scenarios/edge.js';
import { filesScenario } from './scenarios/files.js';
import { historyScenario } from './scenarios/history.js';
import { knowledgeScenario } from './scenarios/knowledge.js';
import { lifecycleScenario } from './scenarios/lifecycle.js';
import { loopScenario } from './scenarios/loop.js';
import { mcpScenario } from './scenarios/mcp.js';
import { modelStreamScenario } from './scenarios/model-stream.js';
import { recordsScenario } from './scenarios/records.js';
import { runScenario } from './scenarios/run.js';
import { serviceToolScenario } from './scenarios/service-tool.js';
import { storePgScenario } from './scenarios/store-pg.js';
import { streamsScenario } from './scenarios/streams.js';
import { traceRowsScenario } from './scenarios/trace-rows.js';
import { voiceScenario } from './scenarios/voice.js';
import { workflowsScenario } from './scenarios/workflows.js';
import { hasWrk } from './support/load.js';
import { table, writeResults, type Row } from './support/report.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

const SCENARIOS: Record<string, () => Promise<Row[]>> = {
  edge: () => edgeScenario(SECONDS),
  run: () => runScenario(SECONDS),
  'data-operations': () => dataOperationsScenario(),
  'model-stream': () => modelStreamScenario(SECONDS),
  streams: () => streamsScenario(),
  history: () => historyScenario(),
  lifecycle: () => lifecycleScenario(),
  workflows: () => workflowsScenario(SECONDS),
  files: () => filesScenario(),
  build: () => buildScenario(SECONDS),
  'store-pg': () => storePgScenario(SECONDS),
  cluster: () => clusterScenario(SECONDS),
  mcp: () => mcpScenario(SECONDS),
  'custom-components': () => customComponentsScenario(SECONDS),
  records: () => recordsScenario(SECONDS),
  'trace-rows': () => traceRowsScenario(),
  voice: () => voiceScenario(),
  knowledge: () => knowledgeScenario(),
  loop: () => loopScenario(),
  'service-tool': () => serviceToolScenario(),
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in SCENARIOS));
if (unknown.length) {
  console.error(`unknown scenario(s): ${unknown.join(', ')}; known: ${Object.keys(SCENARIOS).join(', ')}`);
  process.exit(2);
}

const rows: Row[] = [];
for (const name of wanted.length ? wanted : Object.keys(SCENARIOS)) {
  console.error(`running ${name}...`);
  rows.push(...(await SCENARIOS[name]()));
}
const tool = hasWrk ? 'wrk' : 'autocannon';
console.log(table(rows));
if (wanted.length === 0) {
  writeResults(rows, tool);
  console.error(`(load from ${tool}; written to bench/RESULTS.md)`);
} else {
  console.error(`(load from ${tool}; bench/RESULTS.md is written by full runs only)`);
}
