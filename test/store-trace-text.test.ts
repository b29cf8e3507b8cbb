/**
 * LMDB keeps a trace as positional rows without what its key holds (src/store/lmdb/trace-text.ts): a trace written
 * before, as a JSON object of the whole record, still reads, lists, and goes with its flow; a page whose rows are
 * JSON text still reads and is rewritten when one of its traces is deleted; a retention entry written before (every
 * key of a write listed) still expires what it lists.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open, type RootDatabase } from 'lmdb';
import t, { type Test } from 'tap';
import type { TraceRecord } from '../protocol/trace.schema.js';
import { openLmdbStore } from '../src/store/lmdb/lmdb-store.js';
import { traceRow } from '../src/store/trace-row.js';
import { putTraces } from './support/put-traces.js';

const earlier: TraceRecord = {
  id: 'trace-1', userId: 'u1', flowId: 'f1', flowName: 'Flow', sessionId: 'S', status: 'ok', startedAt: 1000, endedAt: 1010, input: 'hi', outputSpan: 0, tokens: null,
  spans: [{ vertexId: 'ChatOutput-1', targetId: null, name: 'Chat Output', componentType: 'ChatOutput', startedAt: 1002.5, latencyMs: 7.5, status: 'ok', inputs: { input_value: 'hi' }, outputs: { message: { text: 'hi' } }, error: null, model: null, tokens: null }],
};

/** A store whose data an earlier build wrote: `write` puts it straight into the store's LMDB environment. */
async function storeWrittenBefore(t: Test, write: (env: RootDatabase) => Promise<unknown>) {
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-trace-text-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = openLmdbStore(dir);
  await store.ping();
  await store.close();
  const env = open({ path: join(dir, 'db'), maxDbs: 64 });
  await write(env);
  await env.close();
  const reopened = openLmdbStore(dir);
  t.teardown(() => reopened.close());
  return reopened;
}

t.test('a trace stored as a whole JSON object (before rows) still reads', async (t) => {
  const reopened = await storeWrittenBefore(t, (env) => env.openDB({ name: 'run_traces', encoding: 'string' }).put(['u1', 'f1', 1000, 'trace-1', 1, 'S'], JSON.stringify(earlier)));
  t.same(await reopened.runRecords.trace('u1', 'trace-1'), earlier);
  const later: TraceRecord = { ...earlier, id: 'trace-2', startedAt: 2000, endedAt: 2004 };
  await putTraces(reopened, [later], Date.now() + 60_000);
  t.same(await reopened.runRecords.traces(await reopened.runRecords.traceIndex('u1', 'f1')), [later, earlier], 'both forms read, newest first');
  t.equal(await reopened.runRecords.deleteForFlow('u1', 'f1'), 2);
});

t.test('a retention entry written before (a list of every key) still expires its traces', async (t) => {
  const key = ['u1', 'f1', 1000, 'trace-1', 1, 'S'];
  const reopened = await storeWrittenBefore(t, (env) =>
    Promise.all([
      env.openDB({ name: 'run_traces', encoding: 'string' }).put(key, JSON.stringify(earlier)),
      env.openDB({ name: 'run_trace_expiry', encoding: 'msgpack' }).put([Date.now() - 1, 'trace-1'], [key]),
    ]),
  );
  const kept: TraceRecord = { ...earlier, id: 'trace-3', startedAt: 3000, endedAt: 3004 };
  await putTraces(reopened, [kept], Date.now() + 60_000);
  t.equal(await reopened.runRecords.expire(Date.now()), 1, 'the listed trace is removed');
  t.same((await reopened.runRecords.traceIndex('u1', 'f1')).map((entry) => entry.id), ['trace-3'], 'the one written since stays');
});

t.test('a trace in the first rows (epoch times, every input whole) still reads', async (t) => {
  const span = earlier.spans[0];
  const firstRow = [earlier.flowName, earlier.status, earlier.endedAt, earlier.input, earlier.outputSpan, earlier.tokens, [[span.vertexId, span.targetId, span.name, span.componentType, span.startedAt, span.latencyMs, span.status, span.inputs, span.outputs, span.error, span.model, span.tokens]]];
  const reopened = await storeWrittenBefore(t, (env) => env.openDB({ name: 'run_traces', encoding: 'string' }).put(['u1', 'f1', 1000, 'trace-1', 1, 'S'], JSON.stringify(firstRow)));
  t.same(await reopened.runRecords.trace('u1', 'trace-1'), earlier);
});

t.test('a page whose rows are JSON text (the first pages) still reads; deleting one of its traces keeps the others', async (t) => {
  const traces = [0, 1, 2].map((n): TraceRecord => ({ ...earlier, id: `trace-page-${n}`, startedAt: 1000 + n, endedAt: 1010 + n, input: `in ${n}` }));
  const header = JSON.stringify(traces.map((trace) => [trace.startedAt, trace.id, trace.spans.length, trace.sessionId]));
  const rows = JSON.stringify(traces.map(traceRow));
  const reopened = await storeWrittenBefore(t, (env) => env.openDB({ name: 'run_traces', encoding: 'string' }).put(['u1', 'f1', 1000, 'trace-page-0'], `${header}\n${rows}`));
  const repo = reopened.runRecords;
  t.same(await repo.traces(await repo.traceIndex('u1', 'f1')), [...traces].reverse(), 'listed and read, newest first');
  t.same(await repo.trace('u1', 'trace-page-1'), traces[1], 'found by id');
  await repo.deleteTrace(traces[1]);
  t.same(await repo.traces(await repo.traceIndex('u1', 'f1')), [traces[2], traces[0]], 'the page is written again without it');
  await repo.deleteTrace(traces[0]);
  t.same(await repo.trace('u1', 'trace-page-2'), traces[2], 'and reads again after a second rewrite');
});

t.test('an input that is an earlier span\'s output is stored once and reads back whole', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-trace-text-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = openLmdbStore(dir);
  t.teardown(() => store.close());
  const message = { text: 'a reply long enough to be worth a link rather than a copy', sender: 'Machine', sender_name: 'AI' };
  const longText = 'x'.repeat(5000);
  const spans: TraceRecord['spans'] = [
    { ...earlier.spans[0], vertexId: 'Prompt-1', name: 'Prompt', componentType: 'Prompt', startedAt: 1000.0004, latencyMs: 1.0004, inputs: { template: '{q}' }, outputs: { prompt: message, text: longText, short: 'ok' } },
    // `input_value` was also set by the request: the edge's value is the one kept, as when the run recorded it.
    { ...earlier.spans[0], vertexId: 'Model-1', name: 'Model', componentType: 'Model', startedAt: 1001.25, latencyMs: 3.5, inputs: { input_value: message, system: longText, flag: 'ok', extra: { n: 1 } }, outputs: { reply: { text: 'done' } }, error: 'boom', model: null, tokens: null },
    { ...earlier.spans[0], vertexId: 'Out-1', startedAt: 1005, latencyMs: 0, inputs: { input_value: message, other: { text: 'done' } }, outputs: {}, tokens: { input: 1, output: 2, total: 3 } },
  ];
  const trace: TraceRecord = { ...earlier, id: 'trace-links', spans };
  await putTraces(store, [trace], Date.now() + 60_000);
  const read = await store.runRecords.trace('u1', 'trace-links');
  t.same(read?.spans.map((span) => span.inputs), spans.map((span) => span.inputs), 'inputs read back whole');
  t.same(read?.spans.map((span) => [span.startedAt, span.latencyMs]), [[1000, 1], [1001.25, 3.5], [1005, 0]], 'times kept to the microsecond');
  t.same({ ...read, spans: read?.spans.map(({ startedAt, latencyMs, ...rest }) => rest) }, { ...trace, spans: spans.map(({ startedAt, latencyMs, ...rest }) => rest) }, 'everything else as written');
  const env = open({ path: join(dir, 'db'), maxDbs: 64, readOnly: true });
  t.teardown(() => env.close());
  const text = [...env.openDB<string>({ name: 'run_traces', encoding: 'string' }).getRange({})][0].value;
  t.equal(text.split(message.text).length - 1, 1, 'the linked message is written once');
  t.equal(text.split(longText).length - 1, 1, 'the linked long text is written once');
});
