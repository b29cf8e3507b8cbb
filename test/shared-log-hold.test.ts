/**
 * A shared run's last log entries (what its adapter appends as it settles: outputs, the terminal status) reach the
 * other instances only once its record is committed, and never when it was not: a run's shared log must not say it
 * completed while the instance that takes the job over records it interrupted. The lifecycle with a `MirroredLog`
 * over a writer that keeps what it was sent, and a sharing whose final write the test controls.
 */
import t, { type Test } from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ActorHost } from '../actors/actor-host.js';
import { MirroredLog } from '../src/cluster/mirrored-log.js';
import type { RunLogWriter } from '../src/cluster/run-log-writer.js';
import { planRun } from '../src/engine/plan.js';
import { variableResolver } from '../src/engine/variables.js';
import { createLogger } from '../src/logger.js';
import type { RunAdapter, RunResult, RunStart } from '../src/runs/run-adapter.js';
import { Runs } from '../src/runs/run-lifecycle.js';
import type { FinalWrite } from '../src/runs/run-sharing.js';
import { openLmdbStore } from '../src/store/lmdb/lmdb-store.js';
import { graphOf } from './support/engine-harness.js';

const logger = createLogger('silent');

/** How the final write goes: written, refused by its fence, or failed for good. */
type Outcome = 'written' | 'refused' | 'failed';

function sharedRuns(t: Test) {
  const sent: string[] = [];
  const writer: RunLogWriter = { append: (entry) => void sent.push(entry.event), end: async () => undefined };
  let finish!: () => void;
  const writing = new Promise<void>((resolve) => (finish = resolve));
  let outcome: Outcome = 'written';
  let asked!: () => void;
  const recordAsked = new Promise<void>((resolve) => (asked = resolve));
  const sharing = {
    log: () => new MirroredLog(writer, logger),
    record: async (_runId: string, write: FinalWrite) => {
      asked();
      await writing;
      if (outcome === 'failed') throw new Error('database gone');
      return outcome === 'written' && (await write(undefined));
    },
  };
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-shared-log-'));
  const store = openLmdbStore(dir);
  const host = new ActorHost(store.messages, logger);
  const runs = new Runs(host, logger, { timeoutMs: 60_000, concurrency: 2, sharing });
  t.teardown(async () => {
    runs.close();
    host.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { runs, sent, recordAsked, decide: (how: Outcome) => ((outcome = how), finish()) };
}

/** A run with a shared log whose adapter appends its outputs and terminal status as it settles. */
function sharedRun(): RunStart<RunResult> {
  const adapter: RunAdapter<RunResult> = {
    log: { retention: 'replay', shared: true },
    status: (run) => void run.log!.append('job_status', run.status),
    settle: (run, result) => {
      run.log!.append('output', 'answer');
      run.log!.append('job_status', result.status);
      return result;
    },
    persist: async () => true,
  };
  const graph = graphOf([], []);
  const job = { jobId: 'job-1', flow: { id: 'flow-1', name: 'f', userId: 'u' }, sessionId: 's', graph, plan: planRun(graph), overrides: new Map(), variables: variableResolver({}) };
  return { id: 'job-1', userId: 'u', flowId: 'flow-1', job, adapter };
}

for (const [outcome, sentAtEnd] of [
  ['written', ['job_status', 'output', 'job_status']],
  ['refused', ['job_status']],
  ['failed', ['job_status']],
] as const) {
  t.test(`a final record ${outcome}: its last entries are ${outcome === 'written' ? 'sent once it is committed' : 'never sent'}`, async (t) => {
    const { runs, sent, recordAsked, decide } = sharedRuns(t);
    const run = runs.start(sharedRun());
    await recordAsked;
    t.same(run.log!.events.map((entry) => entry.event), ['job_status', 'output', 'job_status'], 'watchers here see every entry at once');
    t.same(sent, ['job_status'], 'the shared log has only what came before the end while the record is written');
    decide(outcome);
    t.equal((await run.answer).status, 'completed', 'the answer stands');
    t.same(sent, sentAtEnd, outcome === 'written' ? 'the end follows the record' : 'whoever ends the job writes its end there');
  });
}
