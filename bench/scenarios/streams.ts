/**
 * 10,000 concurrent open v1 run streams (`POST /api/v1/run/<id>?stream=true`) on a model flow whose model holds
 * every reply open after its first token: the service's resident memory per open stream ((RSS with N open - RSS
 * before) / N, from /proc) and that every stream then completes once the model lets go.
 *
 * File descriptors: each open stream costs the service two (the client's socket and its own socket to the model),
 * so 10,000 streams need a soft `ulimit -n` above 20,000 in the service. The service inherits this process's limit;
 * raising it needs the hard limit (or CAP_SYS_RESOURCE) to allow it, which a container may not. The scenario opens
 * as many streams as the service's limit leaves room for, at most 10,000, and says so in the table.
 */
import { modelStreamFlow } from '../support/model-flow.js';
import { startHeldModelServer } from '../support/held-model-server.js';
import { BENCH_API_KEY, startService } from '../support/processes.js';
import { kb, mb, memoryOf, openFiles, openFilesLimit } from '../support/proc.js';
import type { Row } from '../support/report.js';
import { openRunStreams, type StreamTarget } from '../support/run-streams.js';
import { createFlow } from '../support/runs.js';

const WANTED = Number(process.env.BENCH_STREAMS ?? 10_000);
const WARMUP = 200;
/** Descriptors kept free in the service for whatever it opens on its own (store files, timers, logs). */
const FD_HEADROOM = 64;
const TARGET_KB = 16;
/** Opening stops here (the table then shows fewer held): the whole bench has to stay within minutes. */
const OPEN_DEADLINE_MS = 60_000;

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function streamsScenario(): Promise<Row[]> {
  const model = await startHeldModelServer();
  const service = await startService({ OPENAI_BASE_URL: model.baseURL });
  const pid = service.child.pid!;
  try {
    const id = await createFlow(service.url, modelStreamFlow('bench open streams'));
    const target: StreamTarget = {
      url: service.url,
      path: `/api/v1/run/${id}?stream=true`,
      headers: { 'x-api-key': BENCH_API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ input_value: 'hi', session_id: 'bench-streams' }),
    };

    // Warm-up: the same path end to end, so code loaded and compiled on first use is not counted per stream.
    const warm = openRunStreams(target, WARMUP, { openingAtOnce: 100, openDeadlineMs: 30_000 });
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
    const streams = openRunStreams(target, count, { openingAtOnce: 256, openDeadlineMs: OPEN_DEADLINE_MS });
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

    const perStreamKb = kb(during.rss - before.rss) / held;
    const scenario = 'streams';
    return [
      { scenario, measure: `open streams held at once (service fd limit ${limit}: room for ${room})`, value: held, unit: 'streams', baseline: count, baselineName: 'asked', target: `>= ${WANTED}`, pass: held >= WANTED },
      { scenario, measure: 'streams completed after release', value: completed, unit: 'streams', baseline: opened, baselineName: 'opened', target: 'all', pass: completed === opened && failed === 0 },
      { scenario, measure: 'RSS per open stream', value: perStreamKb, unit: 'KB', target: `< ${TARGET_KB} KB`, pass: perStreamKb < TARGET_KB },
      { scenario, measure: 'anonymous RSS per open stream', value: kb(during.anon - before.anon) / held, unit: 'KB' },
      { scenario, measure: 'service RSS with the streams open', value: mb(during.rss), unit: 'MB', baseline: mb(before.rss), baselineName: 'before, after a warm-up' },
      { scenario, measure: 'time to open them all', value: openSeconds, unit: 's' },
    ];
  } finally {
    await service.stop();
    await model.close();
  }
}
