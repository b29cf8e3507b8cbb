/**
 * LMDB keeps a trace as positional rows without what its key holds (src/store/lmdb/trace-text.ts): a trace written
 * before, as a JSON object of the whole record, still reads, lists, and goes with its flow; a retention entry
 * written before (every key of a write listed) still expires what it lists.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open, type RootDatabase } from 'lmdb';
import t, { type Test } from 'tap';
import type { TraceRecord } from '../protocol/trace.schema.js';
import { openLmdbStore } from '../src/store/lmdb/lmdb-store.js';

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
  await reopened.runRecords.put([later], Date.now() + 60_000);
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
  await reopened.runRecords.put([kept], Date.now() + 60_000);
  t.equal(await reopened.runRecords.expire(Date.now()), 1, 'the listed trace is removed');
  t.same((await reopened.runRecords.traceIndex('u1', 'f1')).map((entry) => entry.id), ['trace-3'], 'the one written since stays');
});
