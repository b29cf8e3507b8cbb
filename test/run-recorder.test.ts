/**
 * The recorder lets a run go once its turn ends (src/services/records/run-recorder.ts): its trace is built then and
 * gathers for a few milliseconds before it is written; the run's job and results are not kept for it meanwhile.
 */
import { setImmediate as turnEnds } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import t from 'tap';
import type { JobInput } from '../actors/job.actor.js';
import type { TraceRecord } from '../protocol/trace.schema.js';
import { createLogger } from '../src/logger.js';
import type { RunResult } from '../src/runs/run-adapter.js';
import { GATHER_MAX, RunRecorder } from '../src/services/records/run-recorder.js';
import { MsgpackWriter } from '../src/store/msgpack-writer.js';
import type { RunRecordRepo, TraceSource } from '../src/store/port.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** A store that only keeps what it was given to write. */
function writesKept() {
  const written: TraceRecord[][] = [];
  const prepared: string[] = [];
  // Prepared as their object form (each noted): this store keeps the records it was given, not the runs.
  const prepare = (trace: TraceSource) => (prepared.push(trace.id), trace.record());
  const repo = { prepare, put: async (traces: readonly TraceRecord[]) => void written.push([...traces]) } as unknown as RunRecordRepo;
  return { repo, written, prepared };
}

const jobOf = (id: string) => ({ jobId: id, flow: { id: 'f1', name: 'Flow', userId: 'u1' }, sessionId: 'S', graph: { vertices: new Map(), incoming: new Map(), outgoing: new Map() }, overrides: new Map() }) as unknown as JobInput;
const resultOf = (ends = new Map<string, number>()) => ({ status: 'completed', results: new Map([['v', { big: 'x'.repeat(100_000) }]]), durations: new Map(), ends }) as unknown as RunResult;

t.test('a run ended is let go at the end of its turn, its trace prepared then; it is written once gathered', async (t) => {
  const { repo, written, prepared } = writesKept();
  const recorder = new RunRecorder(repo, () => Date.now() + 60_000, createLogger('silent'));
  let result: RunResult | undefined = resultOf();
  const watched = new WeakRef(result);
  recorder.begin({ id: 'run-1', userId: 'u1', flowId: 'f1' }, jobOf('run-1')).end(result);
  result = undefined;

  await turnEnds();
  collectGarbage();
  t.equal(watched.deref(), undefined, "the run's results are not held once its turn ended");
  t.same(prepared, ['run-1'], 'its trace is prepared for the store at the end of that turn');
  t.same(written, [], 'not written yet: the trace gathers');
  await recorder.settled();
  t.same(
    written.map((traces) => traces.map((trace) => [trace.id, trace.flowName, trace.status])),
    [[['run-1', 'Flow', 'ok']]],
    'then written, once',
  );
});

t.test('a full page of traces is written at once, without waiting for the gathering time', async (t) => {
  const { repo, written } = writesKept();
  const recorder = new RunRecorder(repo, () => Date.now() + 60_000, createLogger('silent'));
  const end = (count: number, from: number) => {
    for (let n = from; n < from + count; n++) recorder.begin({ id: `run-${n}`, userId: 'u1', flowId: 'f1' }, jobOf(`run-${n}`)).end(resultOf());
  };
  end(GATHER_MAX - 1, 0);
  await turnEnds();
  await turnEnds();
  t.same(written, [], 'one short of a page: still gathering');
  end(1, GATHER_MAX - 1);
  await turnEnds(); // prepared, and due
  await turnEnds(); // written in the turn after
  t.equal(written.length, 1, 'written in one go');
  t.equal(written[0].length, GATHER_MAX, 'every trace gathered so far');
  await recorder.settled();
});

t.test('settled() writes the traces of runs ended in the same turn', async (t) => {
  const { repo, written } = writesKept();
  const recorder = new RunRecorder(repo, () => Date.now() + 60_000, createLogger('silent'));
  for (const id of ['run-1', 'run-2']) recorder.begin({ id, userId: 'u1', flowId: 'f1' }, jobOf(id)).end(resultOf());
  await recorder.settled();
  t.same(written.flat().map((trace) => trace.id), ['run-1', 'run-2']);
});

t.test('a trace that cannot be built is logged and the others are still written', async (t) => {
  const { repo, written } = writesKept();
  const lines: unknown[] = [];
  const logger = { ...createLogger('silent'), error: (fields: unknown) => lines.push(fields) } as unknown as ReturnType<typeof createLogger>;
  const recorder = new RunRecorder(repo, () => Date.now() + 60_000, logger);
  const broken = { ...jobOf('run-1'), graph: undefined } as unknown as JobInput;
  recorder.begin({ id: 'run-1', userId: 'u1', flowId: 'f1' }, broken).end(resultOf(new Map([['v', Date.now()]])));
  recorder.begin({ id: 'run-2', userId: 'u1', flowId: 'f1' }, jobOf('run-2')).end(resultOf());
  await recorder.settled();
  t.same(written.flat().map((trace) => trace.id), ['run-2']);
  t.match(lines, [{ runId: 'run-1' }]);
});

t.test("once a row is written from a run, the writer holds none of the run's values", async (t) => {
  const rows = new MsgpackWriter();
  // This store writes rows, as LMDB does.
  const repo = { prepare: (trace: TraceSource) => (trace.writeRow(rows), trace.id), put: async () => undefined } as unknown as RunRecordRepo;
  const recorder = new RunRecorder(repo, () => Date.now() + 60_000, createLogger('silent'));
  // Started and ended in a function of its own: nothing of the run stays reachable from this test.
  const run = () => {
    const input = { text: 'a long enough text: '.repeat(100) };
    const vertex = { id: 'v', type: 'TextInput', displayName: 'Text', component: { type: 'TextInput', fields: {} }, params: {} };
    const job = { ...jobOf('run-1'), graph: { vertices: new Map([['v', vertex]]), incoming: new Map(), outgoing: new Map() }, overrides: new Map([['v', { input_value: input }]]) };
    const watch = recorder.begin({ id: 'run-1', userId: 'u1', flowId: 'f1' }, job as unknown as JobInput);
    watch.end({ status: 'completed', results: new Map([['v', { text: input.text }]]), durations: new Map([['v', 1]]), ends: new Map([['v', Date.now()]]) } as unknown as RunResult);
    return new WeakRef(input);
  };
  const held = run();
  await turnEnds();
  t.ok(rows.length > 0, 'the row was written');
  collectGarbage();
  t.equal(held.deref(), undefined, 'the input it read is not held');
});
