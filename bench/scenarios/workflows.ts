/**
 * /api/v2/workflows: sync runs at 50 connections against raw uWS (and against v1 runs of the same flow) in the same
 * run; background submit-to-completed (submit, then follow the job's SSE until its terminal status); SSE fan-out of
 * one live job to 1,000 watchers.
 */
import { startHeldModelServer, type HeldModelServer } from '../support/held-model-server.js';
import { framesOf } from '../support/frames.js';
import { load } from '../support/load.js';
import { modelStreamFlow } from '../support/model-flow.js';
import { echoFlow } from '../support/flows.js';
import { BENCH_API_KEY, startRawUws, startService } from '../support/processes.js';
import type { Row } from '../support/report.js';
import { median } from '../support/runs.js';

const HEADERS = { 'x-api-key': BENCH_API_KEY, 'content-type': 'application/json' };
const WATCHERS = 1000;

async function post(url: string, body: unknown): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: HEADERS, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Reads a job's SSE until the terminal job_status; returns the number of events seen. */
async function follow(url: string): Promise<number> {
  const res = await fetch(url, { headers: HEADERS });
  if (!res.ok || !res.body) throw new Error(`${url}: ${res.status}`);
  let events = 0;
  for await (const frame of framesOf(res.body)) {
    events++;
    if (frame.includes('event: job_status') && /"status":"(completed|failed|cancelled|timed_out)"/.test(frame)) break;
  }
  return events;
}

/** Every load here is measured after the same load warmed its server up. */
const WARMUP_SECONDS = 2;

export async function workflowsScenario(seconds: number): Promise<Row[]> {
  const body = JSON.stringify({ input_value: 'hello', session_id: 'bench' });
  const warm = { seconds, warmupSeconds: WARMUP_SECONDS };
  const raw = await startRawUws();
  const baseline = await load({ url: `${raw.url}/echo`, method: 'POST', body, ...warm });
  await raw.stop();

  const model = await startHeldModelServer();
  const service = await startService({ OPENAI_BASE_URL: model.baseURL });
  try {
    const echo = await post(`${service.url}/api/v1/flows/`, echoFlow('bench v2 echo'));
    const runBody = { flow_id: echo.id, inputs: { 'ChatInput-in.input_value': 'hello', 'ChatInput-in.session_id': 'bench' } };
    const sync = await load({ url: `${service.url}/api/v2/workflows`, method: 'POST', headers: { 'x-api-key': BENCH_API_KEY }, body: JSON.stringify(runBody), ...warm });
    // The same flow through v1 in the same run: what the job record and its log cost over a plain run.
    const v1 = await load({ url: `${service.url}/api/v1/run/${echo.id}`, method: 'POST', headers: { 'x-api-key': BENCH_API_KEY }, body, ...warm });

    const submitToDone: number[] = [];
    for (let i = 0; i < 220; i++) {
      const started = performance.now();
      const job = await post(`${service.url}/api/v2/workflows`, { ...runBody, background: true });
      await follow(`${service.url}/api/v2/workflows?job_id=${job.job_id}&stream=true`);
      if (i >= 20) submitToDone.push(performance.now() - started);
    }

    const fanout = await fanOut(service.url, model);
    const base = { scenario: 'workflows', baselineName: 'raw uWS POST echo' };
    const syncRatio = sync.rps / baseline.rps;
    const submitMs = median(submitToDone);
    return [
      { ...base, measure: 'v2 sync echo req/s (50 conns)', value: sync.rps, unit: 'req/s', baseline: baseline.rps, ratio: syncRatio, target: '>= 0.25', pass: syncRatio >= 0.25 },
      { ...base, measure: 'v2 sync echo p99', value: sync.p99, unit: 'ms', baseline: baseline.p99 },
      { scenario: 'workflows', measure: 'v2 sync echo req/s against v1 run of the same flow', value: sync.rps, unit: 'req/s', baseline: v1.rps, baselineName: 'v1 run, 50 conns', ratio: sync.rps / v1.rps },
      { scenario: 'workflows', measure: 'background submit-to-completed, median', value: submitMs, unit: 'ms', target: '< 5 ms', pass: submitMs < 5 },
      { scenario: 'workflows', measure: `SSE fan-out: watchers with every event (of ${WATCHERS})`, value: fanout.complete, unit: 'watchers', target: `= ${WATCHERS}`, pass: fanout.complete === WATCHERS },
      { scenario: 'workflows', measure: `SSE fan-out: release to last watcher done (${fanout.events} events)`, value: fanout.lastMs, unit: 'ms', baseline: fanout.singleMs, baselineName: 'one watcher', ratio: fanout.lastMs / fanout.singleMs },
    ];
  } finally {
    await service.stop();
    await model.close();
  }
}

/** One held job watched by `count` clients; time from releasing the model to the last watcher's terminal event. */
async function watchHeldJob(url: string, model: HeldModelServer, flowId: string, count: number) {
  const job = await post(`${url}/api/v2/workflows`, { flow_id: flowId, background: true, inputs: { 'ChatInput-in.input_value': 'fan out' } });
  await inProgress(url, job.job_id);
  const streamUrl = `${url}/api/v2/workflows?job_id=${job.job_id}&stream=true`;
  let released = 0;
  const watchers = Array.from({ length: count }, () => follow(streamUrl).then((events) => ({ events, doneMs: performance.now() - released })));
  // Watchers attach while the model is held; give the connections time to open before releasing.
  await new Promise((resolve) => setTimeout(resolve, count > 1 ? 3000 : 200));
  released = performance.now();
  model.release();
  return Promise.all(watchers);
}

async function inProgress(url: string, jobId: string): Promise<void> {
  for (;;) {
    const res = await fetch(`${url}/api/v2/workflows?job_id=${jobId}`, { headers: HEADERS });
    if (((await res.json()) as { status: string }).status === 'in_progress') return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function fanOut(url: string, model: HeldModelServer) {
  const flow = await post(`${url}/api/v1/flows/`, modelStreamFlow('bench fan-out'));
  const single = await watchHeldJob(url, model, flow.id, 1);
  const many = await watchHeldJob(url, model, flow.id, WATCHERS);
  const events = single[0].events;
  return { events, singleMs: single[0].doneMs, lastMs: Math.max(...many.map((w) => w.doneMs)), complete: many.filter((w) => w.events === events).length };
}
