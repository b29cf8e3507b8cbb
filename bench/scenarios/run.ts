/**
 * /api/v1/run throughput and latency (ChatInput -> ChatOutput with message storage, and a 50-vertex chain) at 50
 * connections against a raw uWS POST echo in the same run; scheduling overhead per vertex from sequential runs.
 */
import { load } from '../support/load.js';
import { chainFlow, echoFlow } from '../support/flows.js';
import { BENCH_API_KEY, startRawUws, startService } from '../support/processes.js';
import type { Row } from '../support/report.js';

const BODY = JSON.stringify({ input_value: 'hello', session_id: 'bench' });

async function createFlow(url: string, flow: unknown): Promise<string> {
  const res = await fetch(`${url}/api/v1/flows/`, { method: 'POST', headers: { 'x-api-key': BENCH_API_KEY, 'content-type': 'application/json' }, body: JSON.stringify(flow) });
  return ((await res.json()) as { id: string }).id;
}

/** Mean milliseconds of `count` runs one after another (one connection, no queueing). */
async function sequentialMs(url: string, count: number): Promise<number> {
  const headers = { 'x-api-key': BENCH_API_KEY, 'content-type': 'application/json' };
  for (let i = 0; i < 50; i++) await (await fetch(url, { method: 'POST', headers, body: BODY })).arrayBuffer();
  const started = performance.now();
  for (let i = 0; i < count; i++) await (await fetch(url, { method: 'POST', headers, body: BODY })).arrayBuffer();
  return (performance.now() - started) / count;
}

export async function runScenario(seconds: number): Promise<Row[]> {
  const raw = await startRawUws();
  const baseline = await load({ url: `${raw.url}/echo`, method: 'POST', body: BODY, seconds });
  const rawSequential = await sequentialMs(`${raw.url}/echo`, 500);
  await raw.stop();

  const service = await startService();
  const headers = { 'x-api-key': BENCH_API_KEY };
  const echo = await createFlow(service.url, echoFlow('bench echo'));
  const chain = await createFlow(service.url, chainFlow('bench chain', 50));
  const echoLoad = await load({ url: `${service.url}/api/v1/run/${echo}`, method: 'POST', headers, body: BODY, seconds });
  const chainLoad = await load({ url: `${service.url}/api/v1/run/${chain}`, method: 'POST', headers, body: BODY, seconds });
  const echoMs = await sequentialMs(`${service.url}/api/v1/run/${echo}`, 500);
  const chainMs = await sequentialMs(`${service.url}/api/v1/run/${chain}`, 500);
  await service.stop();

  const perVertexUs = ((chainMs - echoMs) / 48) * 1000;
  const base = { scenario: 'run', baselineName: 'raw uWS POST echo' };
  return [
    { ...base, measure: 'echo flow req/s (50 conns)', value: echoLoad.rps, unit: 'req/s', baseline: baseline.rps, ratio: echoLoad.rps / baseline.rps, target: '>= 0.25', pass: echoLoad.rps / baseline.rps >= 0.25 },
    { ...base, measure: 'echo flow p50', value: echoLoad.p50, unit: 'ms', baseline: baseline.p50 },
    { ...base, measure: 'echo flow p99', value: echoLoad.p99, unit: 'ms', baseline: baseline.p99, target: '< 10 ms', pass: echoLoad.p99 < 10 },
    { ...base, measure: '50-vertex chain req/s (50 conns)', value: chainLoad.rps, unit: 'req/s', baseline: baseline.rps, ratio: chainLoad.rps / baseline.rps },
    { ...base, measure: '50-vertex chain p99', value: chainLoad.p99, unit: 'ms', baseline: baseline.p99 },
    { ...base, measure: 'echo flow, one connection', value: echoMs, unit: 'ms/run', baseline: rawSequential },
    { scenario: 'run', measure: 'scheduling per vertex', value: perVertexUs, unit: 'us', target: '< 50 us', pass: perVertexUs < 50 },
  ];
}
