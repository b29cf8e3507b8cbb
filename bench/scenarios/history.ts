/**
 * A long chat history: 100,000 stored messages in one session, and a flow whose Message History (Memory) retrieves
 * the last 100. The retrieval's cost is the Memory flow's per-run time minus the echo flow's (its baseline: the
 * same flow without the Memory branch), sequential runs on the same service; the store's own read of those 100
 * messages, called directly, is the floor. The history is seeded straight into the data dir through the service's
 * LMDB store while the service is stopped, then the service starts on it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { echoFlow, memoryFlow } from '../support/flows.js';
import { startService } from '../support/processes.js';
import type { Row } from '../support/report.js';
import { alternatingMs, createFlow, median, runOnce } from '../support/runs.js';
import { openStore, seedHistory } from '../support/seed-history.js';

const STORED = Number(process.env.BENCH_HISTORY ?? 100_000);
const RETRIEVED = 100;
const SESSION = 'bench-history';
const BODY = JSON.stringify({ input_value: 'hello', session_id: SESSION });
const TARGET_MS = 2;

/** Median milliseconds of the store's own read of the session's newest `RETRIEVED` messages. */
async function storeReadMs(dataDir: string, flowId: string): Promise<number> {
  const store = openStore(dataDir);
  try {
    const times: number[] = [];
    for (let i = 0; i < 300; i++) {
      const started = performance.now();
      const messages = await store.messages.session(flowId, SESSION, { limit: RETRIEVED, newestFirst: true });
      times.push(performance.now() - started);
      if (messages.length !== RETRIEVED) throw new Error(`history: the store returned ${messages.length} messages, expected ${RETRIEVED}`);
    }
    return median(times.slice(50));
  } finally {
    await store.close();
  }
}

export async function historyScenario(): Promise<Row[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowsvc-bench-history-'));
  try {
    const first = await startService({}, dataDir);
    const echo = await createFlow(first.url, echoFlow('bench echo'));
    const memory = await createFlow(first.url, memoryFlow('bench history', RETRIEVED));
    await first.stop();

    const seedStarted = performance.now();
    await seedHistory(dataDir, memory, SESSION, STORED);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const storeMs = await storeReadMs(dataDir, memory);

    const service = await startService({}, dataDir);
    try {
      const memoryUrl = `${service.url}/api/v1/run/${memory}`;
      const echoUrl = `${service.url}/api/v1/run/${echo}`;
      // The first run loads the session from the store; later runs read what the session keeps in memory.
      await runOnce(echoUrl, BODY);
      const coldStarted = performance.now();
      await runOnce(memoryUrl, BODY);
      const coldMs = performance.now() - coldStarted;
      const [echoMs, memoryMs] = await alternatingMs([echoUrl, memoryUrl], 6, 100, BODY);
      const retrievalMs = memoryMs - echoMs;

      const scenario = 'history';
      return [
        { scenario, measure: `Memory: last ${RETRIEVED} of ${STORED} messages, per run`, value: retrievalMs, unit: 'ms', baseline: storeMs, baselineName: 'store read called directly', ratio: retrievalMs / storeMs, target: `< ${TARGET_MS} ms`, pass: retrievalMs < TARGET_MS },
        { scenario, measure: 'Memory flow, one connection', value: memoryMs, unit: 'ms/run', baseline: echoMs, baselineName: 'echo flow, one connection' },
        { scenario, measure: 'first Memory run after start (session loaded from the store)', value: coldMs, unit: 'ms' },
        { scenario, measure: `seeding ${STORED} messages into LMDB`, value: seedSeconds, unit: 's' },
      ];
    } finally {
      await service.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
