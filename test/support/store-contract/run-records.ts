/** The contract for the records of what ran: traces by user and flow, newest first, by id, deleted and expired. */
import { randomUUID } from 'node:crypto';
import type { Test } from 'tap';
import type { TraceRecord } from '../../../protocol/trace.schema.js';
import { putTraces } from '../put-traces.js';
import { freshStore, type OpenStore } from './opened.js';

const trace = (userId: string, flowId: string, startedAt: number, fields: Partial<TraceRecord> = {}): TraceRecord => ({
  id: randomUUID(), userId, flowId, flowName: 'Flow', sessionId: 'S', status: 'ok', startedAt, endedAt: startedAt + 5, input: 'hi',
  outputSpan: null, tokens: null, spans: [], ...fields,
});

export function runRecordsContract(t: Test, open: OpenStore): void {
  t.test('run records: listed by user and flow, newest first, found by id for their user only, kept across a restart', async (t) => {
    const { store, restart } = await freshStore(t, open);
    const span = { vertexId: 'v1', targetId: null, name: 'Model', componentType: 'OpenAIModel', startedAt: 2000.25, latencyMs: 3.5, status: 'error' as const, inputs: { input_value: 'hi' }, outputs: {}, error: 'boom', model: 'gpt-4o-mini', tokens: { input: 1, output: 2, total: 3 } };
    const withSpan = { sessionId: 'T', status: 'error' as const, outputSpan: 0, tokens: span.tokens, spans: [span] };
    const [older, newer, otherFlow, otherUser] = [trace('u1', 'f1', 1000), trace('u1', 'f1', 2000, withSpan), trace('u1', 'f2', 1500), trace('u2', 'f1', 3000)];
    await putTraces(store, [older, newer, otherFlow], Date.now() + 60_000);
    await putTraces(store, [otherUser], Date.now() + 60_000);
    const reopened = await restart();
    t.same((await reopened.runRecords.traceIndex('u1', 'f1')).map((entry) => [entry.id, entry.sessionId]), [[newer.id, 'T'], [older.id, 'S']]);
    t.same((await reopened.runRecords.traceIndex('u1')).map((entry) => entry.id), [newer.id, otherFlow.id, older.id]);
    t.same(await reopened.runRecords.trace('u1', newer.id), newer);
    t.equal(await reopened.runRecords.trace('u2', newer.id), undefined, "another user's trace is not found");
    t.same(await reopened.runRecords.traces(await reopened.runRecords.traceIndex('u2')), [otherUser]);
  });

  t.test('run records: deleted one by one or by flow; expired by retention', async (t) => {
    const { store } = await freshStore(t, open);
    const [a, b, c] = [trace('u1', 'f1', 1), trace('u1', 'f1', 2), trace('u1', 'f2', 3)];
    await putTraces(store, [a, b], Date.now() - 1);
    await putTraces(store, [c], Date.now() + 60_000);
    await store.runRecords.deleteTrace(a);
    t.same((await store.runRecords.traceIndex('u1', 'f1')).map((entry) => entry.id), [b.id]);
    t.equal(await store.runRecords.expire(Date.now()), 1, 'what was left of the due write');
    t.same((await store.runRecords.traceIndex('u1')).map((entry) => entry.id), [c.id], 'what is not due stays');
    t.equal(await store.runRecords.deleteForFlow('u1', 'f2'), 1);
    t.same(await store.runRecords.traceIndex('u1'), []);
  });

  t.test('run records: a write of several users and flows expires as a whole, and only it', async (t) => {
    const { store } = await freshStore(t, open);
    const due = [trace('u1', 'f1', 10), trace('u2', 'f1', 11), trace('u1', 'f2', 12), trace('u1', 'f1', 14)];
    const kept = [trace('u1', 'f1', 5), trace('u1', 'f1', 20), trace('u2', 'f1', 9), trace('u1', 'f3', 12)];
    await putTraces(store, due, Date.now() - 1);
    await putTraces(store, kept, Date.now() + 60_000);
    t.equal(await store.runRecords.expire(Date.now()), due.length);
    const left = [...(await store.runRecords.traceIndex('u1')), ...(await store.runRecords.traceIndex('u2'))].map((entry) => entry.id).sort();
    t.same(left, kept.map((record) => record.id).sort(), 'the traces written for longer, before, after and beside them, stay');
  });
}
