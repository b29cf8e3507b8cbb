/**
 * What the records of what ran cost the run path: /api/v1/run echo throughput at 50 connections with traces and
 * transactions recorded (the default) against the same build with FLOWSVC_TRACES_ENABLED=false, both services up
 * at once and loaded in alternating rounds (drift on the shared machine hits both alike). Throughput on a busy
 * shared machine swings by more than the difference measured, so each service's CPU time per run (from
 * /proc/<pid>/stat, its LMDB writer thread included) is measured too: the ratio of those says what records cost
 * when the CPU is what limits. Also the same with the OpenTelemetry export on, to a local receiver that drops. A
 * second traces-off service is loaded in the same rounds: how far two identical services differ in this run is the
 * resolution of the ratios beside it (on this 2-core machine it has been 2-10%).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { echoFlow } from '../support/flows.js';
import { load } from '../support/load.js';
import { cpuMsOf } from '../support/proc.js';
import { BENCH_API_KEY, startService } from '../support/processes.js';
import type { Row } from '../support/report.js';
import { createFlow, RUN_BODY as BODY } from '../support/runs.js';

const ROUNDS = 3;
const WARMUP_SECONDS = 2;

export async function recordsScenario(seconds: number): Promise<Row[]> {
  const receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}')));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const otlp = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const services = {
    off: await startService({ FLOWSVC_TRACES_ENABLED: 'false' }),
    on: await startService(),
    otel: await startService({ OTEL_EXPORTER_OTLP_ENDPOINT: otlp }),
    offAgain: await startService({ FLOWSVC_TRACES_ENABLED: 'false' }),
  };
  type Name = keyof typeof services;
  const names = Object.keys(services) as Name[];
  const each = <T>(make: () => T) => Object.fromEntries(names.map((name) => [name, make()])) as Record<Name, T>;
  const headers = { 'x-api-key': BENCH_API_KEY };
  const urls = each(() => '');
  for (const name of names) {
    const url = services[name].url;
    urls[name] = `${url}/api/v1/run/${await createFlow(url, echoFlow('bench records'))}`;
  }
  const rps = each((): number[] => []);
  const p99 = each((): number[] => []);
  const cpu = each(() => ({ ms: 0, runs: 0 }));
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of names) {
      if (round === 0) await load({ url: urls[name], method: 'POST', headers, body: BODY, seconds: WARMUP_SECONDS });
      const pid = services[name].child.pid;
      const cpuBefore = cpuMsOf(pid);
      const result = await load({ url: urls[name], method: 'POST', headers, body: BODY, seconds });
      cpu[name].ms += cpuMsOf(pid) - cpuBefore;
      cpu[name].runs += result.completed;
      rps[name].push(result.rps);
      p99[name].push(result.p99);
    }
  }
  await Promise.all(Object.values(services).map((service) => service.stop()));
  await new Promise((resolve) => receiver.close(resolve));

  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const base = { scenario: 'records', baselineName: 'echo run, traces off (FLOWSVC_TRACES_ENABLED=false)' };
  const off = mean(rps.off);
  const usPerRun = (name: Name) => (cpu[name].ms / cpu[name].runs) * 1000;
  const cpuBase = { scenario: 'records', baselineName: 'CPU per echo run, traces off' };
  return [
    { ...cpuBase, measure: 'runs per CPU-second with traces recorded (CPU per run off / on)', value: usPerRun('on'), unit: 'us CPU/run', baseline: usPerRun('off'), ratio: usPerRun('off') / usPerRun('on'), target: '>= 0.95', pass: usPerRun('off') / usPerRun('on') >= 0.95 },
    { ...cpuBase, measure: 'runs per CPU-second with traces recorded and exported over OTLP/HTTP', value: usPerRun('otel'), unit: 'us CPU/run', baseline: usPerRun('off'), ratio: usPerRun('off') / usPerRun('otel') },
    { ...base, measure: 'echo run req/s with traces and transactions recorded (50 conns)', value: mean(rps.on), unit: 'req/s', baseline: off, ratio: mean(rps.on) / off, target: '>= 0.95', pass: mean(rps.on) / off >= 0.95 },
    { ...base, measure: 'echo run p99 with traces recorded', value: mean(p99.on), unit: 'ms', baseline: mean(p99.off) },
    { ...base, measure: 'echo run req/s with traces recorded and exported over OTLP/HTTP', value: mean(rps.otel), unit: 'req/s', baseline: off, ratio: mean(rps.otel) / off },
    { ...cpuBase, measure: 'a second traces-off service (the resolution of the ratios above)', value: usPerRun('offAgain'), unit: 'us CPU/run', baseline: usPerRun('off'), ratio: usPerRun('off') / usPerRun('offAgain') },
    { ...base, measure: 'echo run req/s of a second traces-off service (the same)', value: mean(rps.offAgain), unit: 'req/s', baseline: off, ratio: mean(rps.offAgain) / off },
  ];
}
