/**
 * The build API against v1 runs of the same echo flow, in the same run and the same service: a streaming build
 * (POST /build/{flow_id}/flow?event_delivery=streaming, then its NDJSON events read to `end`: the editor's two
 * requests) and a direct build (the events on the POST itself) against a v1 run (one POST, the batch reply).
 * Latency one after another and completions per second with 20 clients at once, both in alternating rounds; the same
 * fetch client times both, so the ratio is what a build costs over a run.
 */
import { framesOf } from '../support/frames.js';
import { echoFlow } from '../support/flows.js';
import { BENCH_API_KEY, startService } from '../support/processes.js';
import type { Row } from '../support/report.js';
import { createFlow, median, RUN_BODY, runOnce } from '../support/runs.js';

const HEADERS = { 'x-api-key': BENCH_API_KEY, 'content-type': 'application/json' };
const BUILD_BODY = JSON.stringify({ inputs: { input_value: 'hello', session: 'bench' } });
const CLIENTS = 20;

/** Reads a build's events until its `end`, failing loudly on anything else. */
async function readToEnd(res: Response): Promise<void> {
  if (!res.ok || !res.body) throw new Error(`build events: ${res.status} ${await res.text()}`);
  for await (const frame of framesOf(res.body)) if (frame.startsWith('{"event":"end"')) return;
  throw new Error('build events ended without "end"');
}

async function streamingBuild(url: string, flowId: string, logBuilds = true): Promise<void> {
  const res = await fetch(`${url}/api/v1/build/${flowId}/flow?event_delivery=streaming&log_builds=${logBuilds}`, { method: 'POST', headers: HEADERS, body: BUILD_BODY });
  if (!res.ok) throw new Error(`build: ${res.status} ${await res.text()}`);
  const { job_id } = (await res.json()) as { job_id: string };
  await readToEnd(await fetch(`${url}/api/v1/build/${job_id}/events`, { headers: HEADERS }));
}

async function directBuild(url: string, flowId: string): Promise<void> {
  await readToEnd(await fetch(`${url}/api/v1/build/${flowId}/flow?event_delivery=direct`, { method: 'POST', headers: HEADERS, body: BUILD_BODY }));
}

/** Median per-call ms of each task over alternating rounds (drift on the shared machine hits each alike). */
async function alternating(tasks: (() => Promise<unknown>)[], rounds: number, perRound: number): Promise<number[]> {
  const means: number[][] = tasks.map(() => []);
  for (const task of tasks) for (let i = 0; i < perRound; i++) await task();
  for (let round = 0; round < rounds; round++) {
    for (const [index, task] of tasks.entries()) {
      const started = performance.now();
      for (let i = 0; i < perRound; i++) await task();
      means[index].push((performance.now() - started) / perRound);
    }
  }
  return means.map(median);
}

/** Completions per second of `task` with CLIENTS clients calling it back to back for `ms`. */
async function rate(task: () => Promise<unknown>, ms: number): Promise<number> {
  const started = performance.now();
  const until = started + ms;
  let done = 0;
  const client = async () => {
    while (performance.now() < until) {
      await task();
      done++;
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  return done / ((performance.now() - started) / 1000);
}

/** Each task's median rate over alternating one-second windows filling `seconds` each (drift hits both alike). */
async function alternatingRates(tasks: (() => Promise<unknown>)[], seconds: number): Promise<number[]> {
  const rates: number[][] = tasks.map(() => []);
  for (let window = 0; window < Math.max(3, seconds); window++) {
    for (const [index, task] of tasks.entries()) rates[index].push(await rate(task, 1000));
  }
  return rates.map(median);
}

export async function buildScenario(seconds: number): Promise<Row[]> {
  const service = await startService();
  try {
    const flowId = await createFlow(service.url, echoFlow('bench build echo'));
    const run = () => runOnce(`${service.url}/api/v1/run/${flowId}`, RUN_BODY);
    const streaming = () => streamingBuild(service.url, flowId);
    const direct = () => directBuild(service.url, flowId);
    const [runMs, streamingMs, directMs] = await alternating([run, streaming, direct], 8, 40);
    const unlogged = () => streamingBuild(service.url, flowId, false);
    const [runRate, streamingRate, unloggedRate] = await alternatingRates([run, streaming, unlogged], seconds);
    const base = { scenario: 'build', baselineName: 'v1 run, same flow' };
    return [
      { ...base, measure: 'streaming build (POST + events to end), ms one after another', value: streamingMs, unit: 'ms', baseline: runMs, ratio: streamingMs / runMs },
      { ...base, measure: 'direct build (events on the POST), ms one after another', value: directMs, unit: 'ms', baseline: runMs, ratio: directMs / runMs },
      { ...base, measure: `streaming builds/s (${CLIENTS} clients)`, value: streamingRate, unit: 'builds/s', baseline: runRate, ratio: streamingRate / runRate },
      // What recording the vertex builds costs (off the reply's path, but the same CPU and commits).
      { ...base, measure: `streaming builds/s, log_builds=false (${CLIENTS} clients)`, value: unloggedRate, unit: 'builds/s', baseline: runRate, ratio: unloggedRate / runRate },
    ];
  } finally {
    await service.stop();
  }
}
