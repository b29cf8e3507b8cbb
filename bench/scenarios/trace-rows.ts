/**
 * What writing a run's trace row costs, in-process: real echo runs of a service started here, each trace written as
 * LMDB keeps it, straight from the run (`writeRow`: the recorder's row writer), against the way it was written before
 * (`record()`, the trace's object form, then its row's objects encoded by msgpackr). The records scenario says what
 * traces cost the service under load, where this machine resolves 5% at best; this one resolves a tenth of a
 * microsecond per trace, for work on the row writer. Alternating rounds; a figure is the fastest round (the one least
 * disturbed by whatever else the shared machine does).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Packr } from 'msgpackr';
import { loadConfig } from '../../src/config.js';
import { serviceLogger } from '../../src/logger.js';
import { startService } from '../../src/main/server.js';
import { MsgpackWriter } from '../../src/store/msgpack-writer.js';
import type { TraceSource } from '../../src/store/port.js';
import { traceRow } from '../../src/store/trace-row.js';
import { echoFlow } from '../support/flows.js';
import { BENCH_API_KEY } from '../support/processes.js';
import type { Row } from '../support/report.js';
import { createFlow, runOnce } from '../support/runs.js';

const RUNS = 200;
const ROUNDS = 10;
/** Traces written per round, cycling through the runs. */
const PER_ROUND = 100_000;

/** The traces of RUNS echo runs through a service started for the purpose, as its store was handed them. */
async function echoTraces(): Promise<TraceSource[]> {
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-bench-'));
  const config = loadConfig({}, { PORT: '0', DATA_DIR: dir, LOG_LEVEL: 'silent', API_KEY: BENCH_API_KEY });
  const service = await startService(config, serviceLogger(config, false));
  try {
    const sources: TraceSource[] = [];
    const repo = service.services.store.runRecords;
    const prepare = repo.prepare.bind(repo);
    repo.prepare = (source) => (sources.push(source), prepare(source));
    const id = await createFlow(service.url, echoFlow('bench trace rows'));
    for (let n = 0; n < RUNS; n++) await runOnce(`${service.url}/api/v1/run/${id}`, JSON.stringify({ input_value: `question ${n}`, session_id: 'bench' }));
    // Reading the records waits for every ended run's trace to be written.
    await fetch(`${service.url}/api/v1/monitor/traces?flow_id=${id}`, { headers: { 'x-api-key': BENCH_API_KEY } });
    if (sources.length !== RUNS) throw new Error(`${sources.length} traces for ${RUNS} runs`);
    return sources;
  } finally {
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function traceRowsScenario(): Promise<Row[]> {
  const sources = await echoTraces();
  const out = new MsgpackWriter();
  const packer = new Packr({ useRecords: false });
  const direct = (source: TraceSource) => {
    out.reset();
    source.writeRow(out);
    return out.length;
  };
  const viaObjects = (source: TraceSource) => packer.pack(traceRow(source.record())).length;

  const nsPerTrace = (write: (source: TraceSource) => number) => {
    let bytes = 0;
    const started = process.hrtime.bigint();
    for (let n = 0; n < PER_ROUND; n++) bytes += write(sources[n % sources.length]);
    if (bytes === 0) throw new Error('nothing written');
    return Number(process.hrtime.bigint() - started) / PER_ROUND;
  };
  const rounds: Record<'direct' | 'viaObjects', number[]> = { direct: [], viaObjects: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? (['viaObjects', 'direct'] as const) : (['direct', 'viaObjects'] as const);
    for (const name of order) rounds[name].push(nsPerTrace(name === 'direct' ? direct : viaObjects));
  }
  const value = Math.min(...rounds.direct);
  const baseline = Math.min(...rounds.viaObjects);
  return [
    {
      scenario: 'trace-rows',
      // Both read back the same (test/trace-row-writer.test.ts); their bytes may differ (msgpackr's shorter headers).
      measure: `an echo run's trace row written from the run (${RUNS} real runs)`,
      value,
      unit: 'ns/trace',
      baseline,
      baselineName: 'its object form built, then encoded by msgpackr',
      ratio: value / baseline,
    },
    { scenario: 'trace-rows', measure: "an echo run's trace row", value: direct(sources[0]), unit: 'bytes' },
  ];
}
