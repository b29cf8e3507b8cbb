/**
 * What the records of what ran cost the run path: /api/v1/run echo throughput with traces and transactions recorded
 * (the default) against the same build with FLOWSVC_TRACES_ENABLED=false; also with the OpenTelemetry export on, to
 * a local receiver that drops.
 *
 * This machine's speed drifts by up to a third from one window of a few seconds to the next (a shared host), and two
 * processes of the same build can differ by 5% for as long as they run: both more than the difference measured.
 * So each window starts two services afresh (in alternating order), warms them up and loads them at the same time,
 * each from its own load generator with half the connections: both see the same machine, and when the CPU is what
 * limits, the one that costs more per run gets fewer runs done. A round has a window per comparison; a figure is
 * the median of its windows' ratios. A second traces-off service compared the same way is the resolution of the
 * ratios beside it. Each service's CPU time per run (from /proc/<pid>/stat, its LMDB writer and GC threads
 * included) is compared in the same windows.
 *
 * The stack's floor is compared the same way, with and without a trace of each run (a row of the same shape and
 * about the size of the service's, put with the answer's message): what one more record per run costs at the least,
 * in CPU per run beside what traces add to the service. A target that leaves the service less than that per run
 * cannot be met by making the recording cheaper, only by writing fewer records than one per run: the floor with the
 * traces gathered as the service gathers them (up to 50 ms) put as one record says what that costs at the least, and
 * the service writes that way (the traces of a flow gathered together are one page: src/store/lmdb/trace-pages.ts).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { echoFlow } from '../support/flows.js';
import { load, type LoadResult } from '../support/load.js';
import { cpuMsOf } from '../support/proc.js';
import { BENCH_API_KEY, startService, startStackFloor, type ServerProcess } from '../support/processes.js';
import type { Row } from '../support/report.js';
import { createFlow, median, RUN_BODY as BODY } from '../support/runs.js';

/** Even: half the windows start the compared service first (see `window`). */
const ROUNDS = 8;
/**
 * Long enough for the steady state: the traced service has more code for V8 to optimize, and its compiler's threads
 * added 9.7 us of CPU per run to it in the 5 s after a 2 s warm-up, -0.2 us after 8 s, while its main thread added
 * 10.4 and 8.0 (medians of six windows each, interleaved in one run). A cost paid once per process, not per run.
 */
const WARMUP_SECONDS = 8;
/** Per service in a window: 50 in all, as the other run benches. */
const CONNECTIONS = 25;

/** What one window measured of each of its two services: the traces-off one first, then the one compared with it. */
interface Window {
  rps: [number, number];
  usPerRun: [number, number];
  /** Of `usPerRun`, the main thread's. */
  mainUsPerRun: [number, number];
  p99: [number, number];
}

/** A server started for a window, and the URL that runs an echo flow on it. */
interface Loaded {
  service: ServerProcess;
  url: string;
}
type Start = () => Promise<Loaded>;

/** A service with an echo flow. */
const echoService =
  (env: Record<string, string>): Start =>
  async () => {
    const service = await startService(env);
    return { service, url: `${service.url}/api/v1/run/${await createFlow(service.url, echoFlow('bench records'))}` };
  };

/** The stack's floor for an echo run (it answers any path). */
const floor =
  (kind: 'store' | 'traced' | 'paged'): Start =>
  async () => {
    const service = await startStackFloor(kind);
    return { service, url: `${service.url}/run` };
  };

/**
 * Two servers just started, warmed up, then loaded at once for `seconds`, then stopped. `swapped`: the second is
 * started and loaded first. Windows alternate it, so that whatever going first or second does (A/A medians of 0.973
 * and 0.982 over ten windows each in two runs, 1.013 over eight in another) counts as often for both.
 */
async function window(pair: [Start, Start], seconds: number, swapped: boolean): Promise<Window> {
  // Started and loaded in this order; kept as [base, other] whatever the order.
  const order = swapped ? [1, 0] : [0, 1];
  const loaded: Loaded[] = [];
  await Promise.all(order.map(async (n) => (loaded[n] = await pair[n]())));
  const headers = { 'x-api-key': BENCH_API_KEY };
  const loadBoth = async (s: number) => {
    const results: LoadResult[] = [];
    const loadOne = async (n: number) => (results[n] = await load({ url: loaded[n].url, method: 'POST', headers, body: BODY, seconds: s, connections: CONNECTIONS }));
    await Promise.all(order.map(loadOne));
    return results;
  };
  try {
    await loadBoth(WARMUP_SECONDS);
    const cpuBefore = loaded.map(({ service }) => [cpuMsOf(service.child.pid), cpuMsOf(service.child.pid, true)]);
    const [a, b]: LoadResult[] = await loadBoth(seconds);
    const usPerRun = (n: number, completed: number, main = false) => ((cpuMsOf(loaded[n].service.child.pid, main) - cpuBefore[n][main ? 1 : 0]) / completed) * 1000;
    return {
      rps: [a.rps, b.rps],
      usPerRun: [usPerRun(0, a.completed), usPerRun(1, b.completed)],
      mainUsPerRun: [usPerRun(0, a.completed, true), usPerRun(1, b.completed, true)],
      p99: [a.p99, b.p99],
    };
  } finally {
    await Promise.all(loaded.map(({ service }) => service.stop()));
  }
}

const COMPARED = ['on', 'otel', 'offAgain', 'floor', 'pagedFloor'] as const;
type Compared = (typeof COMPARED)[number];

export async function recordsScenario(seconds: number): Promise<Row[]> {
  const receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}')));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const otlp = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const off = echoService({ FLOWSVC_TRACES_ENABLED: 'false' });
  const pairs: Record<Compared, [Start, Start]> = {
    on: [off, echoService({})],
    otel: [off, echoService({ OTEL_EXPORTER_OTLP_ENDPOINT: otlp })],
    offAgain: [off, off],
    floor: [floor('store'), floor('traced')],
    pagedFloor: [floor('store'), floor('paged')],
  };
  const windows: Record<Compared, Window[]> = { on: [], otel: [], offAgain: [], floor: [], pagedFloor: [] };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of COMPARED) windows[name].push(await window(pairs[name], seconds, round % 2 === 1));
    }
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
  }

  const rpsRatios = (name: Compared) => windows[name].map((w) => w.rps[1] / w.rps[0]);
  const added = (name: Compared) => median(windows[name].map((w) => w.usPerRun[1] - w.usPerRun[0]));
  const addedRow = (name: Compared, how: string): Row => ({
    scenario: 'records',
    measure: `CPU a run's trace adds at the stack floor, ${how} (median of the windows' differences; ratio: floor / service)`,
    value: added(name),
    unit: 'us CPU/run',
    baseline: added('on'),
    baselineName: 'what traces add to the service',
    ratio: added(name) / added('on'),
  });
  const rows = (name: Compared, what: string, target?: number, baselineName = 'traces off, loaded at the same time'): Row[] => {
    const ratio = median(rpsRatios(name));
    const cpuRatio = median(windows[name].map((w) => w.usPerRun[0] / w.usPerRun[1]));
    const each = rpsRatios(name).map((r) => r.toFixed(2)).join(' ');
    const base = { scenario: 'records', baselineName };
    return [
      { ...base, measure: `echo run req/s ${what} (${CONNECTIONS} conns; median of windows ${each})`, value: median(windows[name].map((w) => w.rps[1])), unit: 'req/s', baseline: median(windows[name].map((w) => w.rps[0])), ratio, ...(target === undefined ? {} : { target: `>= ${target}`, pass: ratio >= target }) },
      { ...base, measure: `CPU per echo run ${what} (ratio: runs per CPU-second)`, value: median(windows[name].map((w) => w.usPerRun[1])), unit: 'us CPU/run', baseline: median(windows[name].map((w) => w.usPerRun[0])), ratio: cpuRatio },
      { ...base, measure: `of which on the main thread, ${what}`, value: median(windows[name].map((w) => w.mainUsPerRun[1])), unit: 'us CPU/run', baseline: median(windows[name].map((w) => w.mainUsPerRun[0])), ratio: median(windows[name].map((w) => w.mainUsPerRun[0] / w.mainUsPerRun[1])) },
    ];
  };
  return [
    ...rows('on', 'with traces and transactions recorded', 0.95),
    { scenario: 'records', measure: 'echo run p99 with traces recorded', value: median(windows.on.map((w) => w.p99[1])), unit: 'ms', baseline: median(windows.on.map((w) => w.p99[0])), baselineName: 'traces off, loaded at the same time' },
    ...rows('otel', 'with traces recorded and exported over OTLP/HTTP'),
    ...rows('offAgain', 'of a second traces-off service: the resolution of the ratios above'),
    ...rows('floor', 'at the stack floor with a trace of each run put', undefined, 'stack floor, loaded at the same time'),
    ...rows('pagedFloor', 'at the stack floor with the traces gathered (up to 50 ms) put as one record', undefined, 'stack floor, loaded at the same time'),
    addedRow('floor', 'a trace put per run'),
    addedRow('pagedFloor', 'the traces gathered (up to 50 ms) put as one record'),
  ];
}
