/**
 * /api/v1/run throughput and latency (ChatInput -> ChatOutput with message storage, and a 50-vertex chain) at 50
 * connections against a raw uWS POST echo in the same run; scheduling overhead per vertex from sequential runs,
 * on the 50-vertex chain and on a 200-vertex flow that is half chain, half fan-out (99 parallel branches joined).
 * The echo figures again with FLOWSVC_STORE_SYNC=off say how much of them is waiting for the disk's flushes
 * (without them: what the service's CPU allows); the per-vertex figures come from that service too.
 * The stack's floor (bench/support/stack-floor.ts: uWS, one nact actor per run, both messages put to LMDB, a reply
 * of Langflow's shape, nothing else) is measured in the same run: it says how much of the raw uWS figure any
 * service on this stack keeps, and the echo flow's ratio to it is what the service's own work costs.
 */
import { load } from '../support/load.js';
import { chainAndFanOutFlow, chainFlow, echoFlow } from '../support/flows.js';
import { BENCH_API_KEY, startRawUws, startService, startStackFloor } from '../support/processes.js';
import type { Row } from '../support/report.js';
import { alternatingMs, createFlow, RUN_BODY as BODY, sequentialMs } from '../support/runs.js';

/** Every load here is measured after the same load warmed its server up. */
const WARMUP_SECONDS = 2;

export async function runScenario(seconds: number): Promise<Row[]> {
  const raw = await startRawUws();
  const warm = { seconds, warmupSeconds: WARMUP_SECONDS };
  const baseline = await load({ url: `${raw.url}/echo`, method: 'POST', body: BODY, ...warm });
  const rawSequential = await sequentialMs(`${raw.url}/echo`, 500);
  await raw.stop();

  const floor = await startStackFloor('store');
  const floorLoad = await load({ url: `${floor.url}/run`, method: 'POST', body: BODY, ...warm });
  await floor.stop();
  const bareFloor = await startStackFloor('actor');
  const bareFloorLoad = await load({ url: `${bareFloor.url}/run`, method: 'POST', body: BODY, ...warm });
  await bareFloor.stop();

  const service = await startService();
  const headers = { 'x-api-key': BENCH_API_KEY };
  const echo = await createFlow(service.url, echoFlow('bench echo'));
  const chain = await createFlow(service.url, chainFlow('bench chain', 50));
  const echoLoad = await load({ url: `${service.url}/api/v1/run/${echo}`, method: 'POST', headers, body: BODY, ...warm });
  const chainLoad = await load({ url: `${service.url}/api/v1/run/${chain}`, method: 'POST', headers, body: BODY, ...warm });
  const echoMs = await sequentialMs(`${service.url}/api/v1/run/${echo}`, 500);
  await service.stop();

  const unsynced = await startService({ FLOWSVC_STORE_SYNC: 'off' });
  const unsyncedEcho = await createFlow(unsynced.url, echoFlow('bench echo'));
  const unsyncedLoad = await load({ url: `${unsynced.url}/api/v1/run/${unsyncedEcho}`, method: 'POST', headers, body: BODY, ...warm });
  // Per-vertex cost is CPU: measured where no flush wait (a few ms, varying with the disk's other load) hides it.
  const unsyncedChain = await createFlow(unsynced.url, chainFlow('bench chain', 50));
  const unsyncedWide = await createFlow(unsynced.url, chainAndFanOutFlow('bench chain and fan-out', 200));
  // In alternating rounds: measured one after the other, drift on the shared machine (0.3 ms either way between
  // minutes) exceeded the difference and once gave a negative cost per vertex.
  const [unsyncedMs, chainMs, wideMs] = await alternatingMs([unsyncedEcho, unsyncedChain, unsyncedWide].map((id) => `${unsynced.url}/api/v1/run/${id}`), 8, 60);
  await unsynced.stop();

  // The edge adapters side by side, without flush waits (what differs is CPU). The default (auto) serves with
  // node:http where the loaded uWS build leaves header names with `_` unanswered (README, FLOWSVC_HTTP_SERVER).
  const perAdapter: Record<'uws' | 'node', Awaited<ReturnType<typeof load>>> = {} as never;
  for (const adapter of ['uws', 'node'] as const) {
    const served = await startService({ FLOWSVC_STORE_SYNC: 'off', FLOWSVC_HTTP_SERVER: adapter });
    const id = await createFlow(served.url, echoFlow('bench echo'));
    perAdapter[adapter] = await load({ url: `${served.url}/api/v1/run/${id}`, method: 'POST', headers, body: BODY, ...warm });
    await served.stop();
  }

  // Both flows have the echo flow's two ends: what they add is their other vertices.
  const perVertexUs = ((chainMs - unsyncedMs) / 48) * 1000;
  const widePerVertexUs = ((wideMs - unsyncedMs) / 198) * 1000;
  const base = { scenario: 'run', baselineName: 'raw uWS POST echo' };
  return [
    { ...base, measure: 'echo flow req/s (50 conns)', value: echoLoad.rps, unit: 'req/s', baseline: baseline.rps, ratio: echoLoad.rps / baseline.rps, target: '>= 0.25', pass: echoLoad.rps / baseline.rps >= 0.25 },
    { ...base, measure: 'stack floor: uWS + one nact actor per run + both messages in LMDB, req/s', value: floorLoad.rps, unit: 'req/s', baseline: baseline.rps, ratio: floorLoad.rps / baseline.rps },
    { ...base, measure: 'stack floor p99', value: floorLoad.p99, unit: 'ms', baseline: baseline.p99 },
    { ...base, measure: 'stack floor without the message store, req/s', value: bareFloorLoad.rps, unit: 'req/s', baseline: baseline.rps, ratio: bareFloorLoad.rps / baseline.rps },
    { scenario: 'run', measure: 'echo flow req/s against the stack floor', value: echoLoad.rps, unit: 'req/s', baseline: floorLoad.rps, baselineName: 'stack floor', ratio: echoLoad.rps / floorLoad.rps },
    { ...base, measure: 'echo flow p50', value: echoLoad.p50, unit: 'ms', baseline: baseline.p50 },
    { ...base, measure: 'echo flow p99', value: echoLoad.p99, unit: 'ms', baseline: baseline.p99, target: '< 10 ms', pass: echoLoad.p99 < 10 },
    { ...base, measure: 'echo flow req/s, FLOWSVC_STORE_SYNC=off (no fsync wait)', value: unsyncedLoad.rps, unit: 'req/s', baseline: baseline.rps, ratio: unsyncedLoad.rps / baseline.rps },
    { ...base, measure: 'echo flow p99, FLOWSVC_STORE_SYNC=off', value: unsyncedLoad.p99, unit: 'ms', baseline: baseline.p99 },
    { ...base, measure: 'echo flow req/s, sync off, uWS adapter (FLOWSVC_HTTP_SERVER=uws)', value: perAdapter.uws.rps, unit: 'req/s', baseline: baseline.rps, ratio: perAdapter.uws.rps / baseline.rps },
    { ...base, baselineName: 'the same on the uWS adapter', measure: 'echo flow req/s, sync off, node:http adapter (FLOWSVC_HTTP_SERVER=node)', value: perAdapter.node.rps, unit: 'req/s', baseline: perAdapter.uws.rps, ratio: perAdapter.node.rps / perAdapter.uws.rps },
    { ...base, baselineName: 'the same on the uWS adapter', measure: 'echo flow p99, sync off, node:http adapter', value: perAdapter.node.p99, unit: 'ms', baseline: perAdapter.uws.p99 },
    { ...base, measure: '50-vertex chain req/s (50 conns)', value: chainLoad.rps, unit: 'req/s', baseline: baseline.rps, ratio: chainLoad.rps / baseline.rps },
    { ...base, measure: '50-vertex chain p99', value: chainLoad.p99, unit: 'ms', baseline: baseline.p99 },
    { ...base, measure: 'echo flow, one connection', value: echoMs, unit: 'ms/run', baseline: rawSequential },
    { ...base, measure: 'echo flow, one connection, FLOWSVC_STORE_SYNC=off', value: unsyncedMs, unit: 'ms/run', baseline: rawSequential },
    { scenario: 'run', measure: 'scheduling per vertex', value: perVertexUs, unit: 'us', target: '< 50 us', pass: perVertexUs < 50 },
    { scenario: 'run', measure: '200-vertex chain + fan-out, one connection', value: wideMs, unit: 'ms/run', baseline: unsyncedMs, baselineName: 'echo flow, one connection, sync off' },
    { scenario: 'run', measure: 'scheduling per vertex (200: chain + fan-out)', value: widePerVertexUs, unit: 'us', target: '< 50 us', pass: widePerVertexUs < 50 },
  ];
}
