/**
 * The run lifecycle on its own (the actor host, a temporary store, test components): the order of the adapter's
 * hooks, the queue, stop and cancel, timeouts, shutdown, records that fail, a store that fails, and recovery.
 */
import t, { type Test } from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ActorHost } from '../actors/actor-host.js';
import { defineComponent } from '../src/components/contract.js';
import { text } from '../src/components/fields.js';
import type { FlowGraph } from '../src/engine/graph.js';
import { planRun } from '../src/engine/plan.js';
import { variableResolver } from '../src/engine/variables.js';
import { createLogger } from '../src/logger.js';
import type { LiveRun } from '../src/runs/live-run.js';
import type { RunAdapter, RunResult, RunStart } from '../src/runs/run-adapter.js';
import { Runs, type RunsOptions } from '../src/runs/run-lifecycle.js';
import { openLmdbStore } from '../src/store/lmdb/lmdb-store.js';
import type { MessageRepo } from '../src/store/port.js';
import { createMessage } from '../src/values/message.js';
import { graphOf } from './support/engine-harness.js';

/** A component that runs until released or aborted; `started` settles as it starts. */
function gate() {
  let started!: () => void;
  let release!: () => void;
  const state = { started: new Promise<void>((r) => (started = r)), released: new Promise<void>((r) => (release = r)), aborted: false, runs: 0 };
  const component = defineComponent({
    type: 'TestGate', version: 1, displayName: 'Gate', description: '', category: 'test', icon: '',
    fields: { value: text({ displayName: 'Value' }) },
    outputs: [{ name: 'out', displayName: 'Out', types: ['Message'], method: 'out' }],
    async run(inputs, ctx) {
      state.runs++;
      started();
      await new Promise<void>((resolve, reject) => {
        void state.released.then(resolve);
        ctx.signal.addEventListener('abort', () => {
          state.aborted = true;
          reject(new Error('aborted'));
        });
      });
      return { out: inputs.value };
    },
  });
  return Object.assign(state, { component, release: () => release() });
}

/** Stores one message in the run's session, then answers. */
const storing = defineComponent({
  type: 'TestStore', version: 1, displayName: 'Store', description: '', category: 'test', icon: '',
  fields: { value: text({ displayName: 'Value' }) },
  outputs: [{ name: 'out', displayName: 'Out', types: ['Message'], method: 'out' }],
  run: async (inputs, ctx) => ({ out: await ctx.memory.store(createMessage({ text: inputs.value, session_id: 's' })) }),
});

/** An adapter that records which hooks ran, in order, with the status at each. */
function tracing(overrides: Partial<RunAdapter<RunResult>> = {}) {
  const calls: string[] = [];
  const adapter: RunAdapter<RunResult> = {
    status: (run) => calls.push(`status:${run.status}`),
    queued: async () => void calls.push('queued'),
    started: async () => void calls.push('started'),
    settle: (run, result) => (calls.push(`settle:${run.status}`), result),
    persist: async (run) => void calls.push(`persist:${run.status}`),
    ...overrides,
  };
  return { calls, adapter };
}

function lifecycle(t: Test, options: Partial<RunsOptions> = {}, messages?: MessageRepo) {
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-runs-'));
  const store = openLmdbStore(dir);
  const logger = createLogger('silent');
  const host = new ActorHost(messages ?? store.messages, logger);
  const runs = new Runs(host, logger, { timeoutMs: 60_000, concurrency: 4, ...options });
  t.teardown(async () => {
    runs.close();
    host.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return runs;
}

let ids = 0;
function startOf<A>(graph: FlowGraph, adapter: RunAdapter<A>): RunStart<A> {
  const id = `run-${++ids}`;
  const job = { jobId: id, flow: { id: 'flow-1', name: 'f', userId: 'u' }, sessionId: 's', graph, plan: planRun(graph), overrides: new Map(), variables: variableResolver({}) };
  return { id, userId: 'u', flowId: 'flow-1', job, adapter };
}

t.test('a started run: status, started, settle, persist, in that order; the answer waits for the record', async (t) => {
  const runs = lifecycle(t);
  const g = gate();
  const { calls, adapter } = tracing();
  const run = runs.start(startOf(graphOf([['g', g.component, { value: 'v' }]], []), adapter));
  t.equal(run.status, 'in_progress');
  t.equal(runs.find(run.id), run, 'the run is known while it runs');
  g.release();
  const result = await run.answer;
  t.equal(result.status, 'completed');
  t.same(calls, ['status:in_progress', 'started', 'settle:completed', 'persist:completed']);
  t.equal(runs.find(run.id), undefined, 'and forgotten once it ended');
  run.cancel('stop');
  t.equal(run.status, 'completed', 'a late stop does not change an ended run');
});

t.test('background runs: recorded before they queue, run in arrival order, and a queued one stops without starting', async (t) => {
  const runs = lifecycle(t, { concurrency: 1 });
  const first = gate();
  const second = gate();
  const one = tracing();
  const two = tracing();
  const a = await runs.enqueue(startOf(graphOf([['g', first.component]], []), one.adapter));
  const b = await runs.enqueue(startOf(graphOf([['g', second.component]], []), two.adapter));
  t.same(two.calls, ['status:queued', 'queued'], 'recorded while queued');
  await first.started;
  t.equal(a.status, 'in_progress');
  t.equal(b.status, 'queued', 'one slot: the second waits');
  b.cancel('stop');
  const stopped = await b.answer;
  t.equal(stopped.status, 'cancelled');
  t.same(stopped.failure, { kind: 'cancelled', reason: 'stop' });
  t.equal(second.runs, 0, 'it never started');
  t.same(two.calls, ['status:queued', 'queued', 'settle:cancelled', 'persist:cancelled']);
  first.release();
  t.equal((await a.answer).status, 'completed');
});

t.test('a queued run starts only once its start is recorded, so a run that kills the process is not run again at every start', async (t) => {
  const runs = lifecycle(t);
  const g = gate();
  let recordStart!: () => void;
  let startAsked!: () => void;
  const asked = new Promise<void>((resolve) => (startAsked = resolve));
  const { calls, adapter } = tracing({
    started: () => new Promise<void>((resolve) => ((recordStart = () => (calls.push('started'), resolve())), startAsked())),
  });
  const run = await runs.enqueue(startOf(graphOf([['g', g.component]], []), adapter));
  await asked;
  t.equal(run.status, 'in_progress', 'taken from the queue');
  t.equal(g.runs, 0, 'but not run while its start record is being written');
  recordStart();
  await g.started;
  g.release();
  t.equal((await run.answer).status, 'completed');
  t.same(calls, ['status:queued', 'queued', 'status:in_progress', 'started', 'settle:completed', 'persist:completed']);
});

t.test('a queued run whose start cannot be recorded ends with a store failure without running', async (t) => {
  const runs = lifecycle(t);
  const g = gate();
  const { adapter } = tracing({ started: () => Promise.reject(new Error('disk full')) });
  const run = await runs.enqueue(startOf(graphOf([['g', g.component]], []), adapter));
  const result = await run.answer;
  t.equal(result.status, 'failed');
  t.equal(result.failure?.kind, 'store');
  t.equal(g.runs, 0, 'it never ran');
});

t.test('a queued run stopped while its start is being recorded ends cancelled without running', async (t) => {
  const runs = lifecycle(t);
  const g = gate();
  let recordStart!: () => void;
  let startAsked!: () => void;
  const asked = new Promise<void>((resolve) => (startAsked = resolve));
  const { adapter } = tracing({ started: () => new Promise<void>((resolve) => ((recordStart = resolve), startAsked())) });
  const run = await runs.enqueue(startOf(graphOf([['g', g.component]], []), adapter));
  await asked;
  run.cancel('stop');
  recordStart();
  const result = await run.answer;
  t.equal(result.status, 'cancelled');
  t.equal(g.runs, 0, 'it never ran');
});

t.test('an enqueue whose record cannot be written is refused, and leaves nothing behind', async (t) => {
  const runs = lifecycle(t);
  const g = gate();
  const { adapter } = tracing({ queued: () => Promise.reject(new Error('disk full')) });
  const start = startOf(graphOf([['g', g.component]], []), adapter);
  await t.rejects(runs.enqueue(start), /disk full/);
  t.equal(runs.find(start.id), undefined);
  t.equal(g.runs, 0);
});

t.test('stop, client gone and timeout abort a running component, each ending with its own failure', async (t) => {
  const runs = lifecycle(t);
  for (const reason of ['stop', 'client_gone'] as const) {
    const g = gate();
    const run = runs.start(startOf(graphOf([['g', g.component]], []), tracing().adapter));
    await g.started;
    run.cancel(reason);
    const result = await run.answer;
    t.same([result.status, result.failure], ['cancelled', { kind: 'cancelled', reason }], reason);
    t.ok(g.aborted, `${reason}: the component saw the abort`);
  }
  const quick = lifecycle(t, { timeoutMs: 50 });
  const g = gate();
  const result = await quick.start(startOf(graphOf([['g', g.component]], []), tracing().adapter)).answer;
  t.same([result.status, result.failure], ['timed_out', { kind: 'timed_out', timeoutMs: 50 }]);
  t.ok(g.aborted);
});

t.test('a record that cannot be written is logged; the answer stands', async (t) => {
  const runs = lifecycle(t);
  const g = gate();
  const { adapter } = tracing({ persist: () => Promise.reject(new Error('disk full')) });
  const run = runs.start(startOf(graphOf([['g', g.component, { value: 'v' }]], []), adapter));
  g.release();
  t.equal((await run.answer).status, 'completed');
});

t.test("a run whose messages are not committed fails with a store failure", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-runs-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = openLmdbStore(dir);
  t.teardown(() => store.close());
  const failing: MessageRepo = { ...store.messages, put: () => Promise.reject(new Error('disk full')) };
  const runs = lifecycle(t, {}, failing);
  const result = await runs.start(startOf(graphOf([['m', storing, { value: 'hello' }]], []), tracing().adapter)).answer;
  t.equal(result.status, 'failed');
  t.equal(result.failure?.kind, 'store');
  t.match(result.failure, { error: { message: 'disk full' } });
});

t.test('shutdown ends every run for its callers and records nothing: the next start recovers them', async (t) => {
  const runs = lifecycle(t, { concurrency: 1 });
  const g = gate();
  const running = tracing();
  const waiting = tracing();
  const a = runs.start(startOf(graphOf([['g', g.component]], []), running.adapter));
  const b = await runs.enqueue(startOf(graphOf([['g', gate().component]], []), waiting.adapter));
  await g.started;
  runs.close();
  t.same((await a.answer).failure, { kind: 'cancelled', reason: 'shutdown' });
  t.same((await b.answer).failure, { kind: 'cancelled', reason: 'shutdown' });
  t.notOk(running.calls.some((c) => c.startsWith('persist')), 'no final record: it stays in progress');
  t.notOk(waiting.calls.some((c) => c.startsWith('persist')), 'no final record: it stays queued');
});

t.test('recovery: a queued run with a job runs again; any other ends failed (interrupted) without re-logging its status', async (t) => {
  const runs = lifecycle(t);
  const g = gate();
  const again = tracing();
  const cut = tracing();
  const leftQueued = tracing();
  const resumable = startOf(graphOf([['g', g.component, { value: 'v' }]], []), again.adapter);
  const { job, ...queuedRun } = resumable;
  const counts = await runs.recover([
    {
      name: 'test records',
      unfinished: async () => [
        { status: 'queued', run: queuedRun, job },
        { status: 'in_progress', run: { id: 'cut', userId: 'u', flowId: 'flow-1', adapter: cut.adapter } },
        { status: 'queued', run: { id: 'gone', userId: 'u', flowId: 'flow-1', adapter: leftQueued.adapter } },
      ],
    },
  ]);
  t.same(counts, { requeued: 1, interrupted: 2 });
  t.same(cut.calls, ['settle:failed', 'persist:failed']);
  t.same(leftQueued.calls, ['settle:failed', 'persist:failed'], 'a queued run that cannot run again ends too');
  g.release();
  const rerun = runs.find(resumable.id) as LiveRun<RunResult>;
  t.equal((await rerun.answer).status, 'completed');
  t.same(again.calls, ['status:queued', 'status:in_progress', 'started', 'settle:completed', 'persist:completed']);
});
