/**
 * 10,000 concurrent open v1 run streams (`POST /api/v1/run/<id>?stream=true`) on a model flow whose model holds
 * every reply open after its first token: the service's resident memory per open stream ((RSS with N open - RSS
 * before) / N, from /proc) and that every stream then completes once the model lets go.
 *
 * File descriptors: each open stream costs the service two (the client's socket and its own socket to the model),
 * so 10,000 streams need a soft `ulimit -n` above 20,000 in the service. The service inherits this process's limit;
 * raising it needs the hard limit (or CAP_SYS_RESOURCE) to allow it, which a container may not. The scenario opens
 * as many streams as the service's limit leaves room for, at most 10,000, and says so in the table.
 *
 * The floor: the same streams through a bare uWS -> model proxy (bench/support/model-proxy.ts: an incoming socket,
 * a node:http request to the model, nothing else). What it holds per stream any service in between holds; the
 * rest is the service's run (engine, job actor, model call, stream framing).
 */
import { modelStreamFlow } from '../support/model-flow.js';
import { startHeldModelServer, type HeldModelServer } from '../support/held-model-server.js';
import { startModelProxy } from '../support/model-proxy.js';
import { BENCH_API_KEY, startService, type ServerProcess } from '../support/processes.js';
import { kb, mb, memoryOf, openFiles, openFilesLimit, type Memory } from '../support/proc.js';
import type { Row } from '../support/report.js';
import { openRunStreams, type StreamMarkers, type StreamTarget } from '../support/run-streams.js';
import { createFlow } from '../support/runs.js';

const WANTED = Number(process.env.BENCH_STREAMS ?? 10_000);
const WARMUP = 200;
/** Descriptors kept free in the server for whatever it opens on its own (store files, timers, logs). */
const FD_HEADROOM = 64;
const TARGET_KB = 16;
/** Opening stops here (the table then shows fewer held): the whole bench has to stay within minutes. */
const OPEN_DEADLINE_MS = 60_000;
/** The model's own chunks, as the bare proxy passes them on. */
const MODEL_STREAM: StreamMarkers = { token: '"content":"held ', end: '[DONE]' };

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Held {
  limit: number;
  room: number;
  count: number;
  held: number;
  opened: number;
  completed: number;
  failed: number;
  before: Memory;
  during: Memory;
  openSeconds: number;
}

/** Opens up to WANTED streams through `server` (after a warm-up), reads its memory with them open, then releases them. */
async function holdStreams(server: ServerProcess, model: HeldModelServer, target: StreamTarget, markers?: StreamMarkers): Promise<Held> {
  const pid = server.child.pid!;
  // Warm-up: the same path end to end, so code loaded and compiled on first use is not counted per stream.
  const warm = openRunStreams(target, WARMUP, { openingAtOnce: 100, openDeadlineMs: 30_000, markers });
  await warm.allOpen;
  model.release();
  await warm.settled(30_000);
  warm.destroy();
  if (warm.tally.completed !== WARMUP) throw new Error(`streams warm-up: ${warm.tally.completed}/${WARMUP} completed; ${warm.tally.reasons.join('; ')}`);
  await settle(1000);

  const limit = openFilesLimit(pid);
  const room = Math.floor((limit - openFiles(pid) - FD_HEADROOM) / 2);
  const count = Math.min(WANTED, room);
  const before = memoryOf(pid);
  const started = performance.now();
  const streams = openRunStreams(target, count, { openingAtOnce: 256, openDeadlineMs: OPEN_DEADLINE_MS, markers });
  await streams.allOpen;
  const openSeconds = (performance.now() - started) / 1000;
  const held = streams.tally.open;
  await settle(1000);
  const during = memoryOf(pid);
  model.release();
  await streams.settled(60_000);
  streams.destroy();
  const { started: opened, completed, failed, reasons } = streams.tally;
  if (failed) console.error(`streams: ${failed} failed, e.g. ${reasons.join('; ')}`);
  return { limit, room, count, held, opened, completed, failed, before, during, openSeconds };
}

const perStream = (h: Held) => kb(h.during.rss - h.before.rss) / h.held;

export async function streamsScenario(): Promise<Row[]> {
  const model = await startHeldModelServer();
  try {
    const proxy = await startModelProxy(model.baseURL);
    const body = JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const floor = await holdStreams(proxy, model, { url: proxy.url, path: '/v1/chat/completions', headers: { 'content-type': 'application/json' }, body }, MODEL_STREAM).finally(() => proxy.stop());

    const service = await startService({ OPENAI_BASE_URL: model.baseURL });
    let run: Held;
    try {
      const id = await createFlow(service.url, modelStreamFlow('bench open streams'));
      const headers = { 'x-api-key': BENCH_API_KEY, 'content-type': 'application/json' };
      run = await holdStreams(service, model, { url: service.url, path: `/api/v1/run/${id}?stream=true`, headers, body: JSON.stringify({ input_value: 'hi', session_id: 'bench-streams' }) });
    } finally {
      await service.stop();
    }

    const scenario = 'streams';
    const perStreamKb = perStream(run);
    const floorKb = perStream(floor);
    return [
      { scenario, measure: `open streams held at once (service fd limit ${run.limit}: room for ${run.room})`, value: run.held, unit: 'streams', baseline: run.count, baselineName: 'asked', target: `>= ${WANTED}`, pass: run.held >= WANTED },
      { scenario, measure: 'streams completed after release', value: run.completed, unit: 'streams', baseline: run.opened, baselineName: 'opened', target: 'all', pass: run.completed === run.opened && run.failed === 0 },
      { scenario, measure: 'RSS per open stream', value: perStreamKb, unit: 'KB', baseline: floorKb, baselineName: 'bare uWS -> model proxy', target: `< ${TARGET_KB} KB`, pass: perStreamKb < TARGET_KB },
      { scenario, measure: 'RSS per open stream beyond the bare proxy (the service\'s own)', value: perStreamKb - floorKb, unit: 'KB' },
      { scenario, measure: 'anonymous RSS per open stream', value: kb(run.during.anon - run.before.anon) / run.held, unit: 'KB' },
      { scenario, measure: 'service RSS with the streams open', value: mb(run.during.rss), unit: 'MB', baseline: mb(run.before.rss), baselineName: 'before, after a warm-up' },
      { scenario, measure: 'time to open them all', value: run.openSeconds, unit: 's', baseline: floor.openSeconds, baselineName: 'bare proxy' },
      { scenario, measure: `bare uWS -> model proxy: streams held (of ${floor.count} asked), completed`, value: floor.completed, unit: 'streams', baseline: floor.held, baselineName: 'held' },
    ];
  } finally {
    await model.close();
  }
}
