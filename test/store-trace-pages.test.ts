/**
 * LMDB writes the traces of a user's flow that end together as one page (src/store/lmdb/trace-pages.ts): one
 * record per flow per write, not one per run. Every read still sees traces one by one: listings, lookups by id,
 * deleting one trace out of a page, a flow's traces, retention, and a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { Packr, unpack } from 'msgpackr';
import t, { type Test } from 'tap';
import type { TraceRecord } from '../protocol/trace.schema.js';
import { openLmdbStore } from '../src/store/lmdb/lmdb-store.js';
import { MSGPACK_PAGE, PAGE_MAX } from '../src/store/lmdb/trace-pages.js';
import { MsgpackWriter } from '../src/store/msgpack-writer.js';
import { traceRow, traceSourceOf } from '../src/store/trace-row.js';
import { putTraces } from './support/put-traces.js';

function traceOf(n: number, flowId: string, sessionId = `S${n % 3}`, userId = 'u1'): TraceRecord {
  const input = `run ${n} of ${flowId}`;
  const span = { vertexId: 'ChatOutput-1', targetId: null, name: 'Chat Output', componentType: 'ChatOutput', startedAt: 1000 + n, latencyMs: 0.5, status: 'ok' as const, inputs: { input_value: input }, outputs: { message: { text: input } }, error: null, model: null, tokens: null };
  return { id: `trace-${flowId}-${n}`, userId, flowId, flowName: flowId, sessionId, status: 'ok', startedAt: 1000 + n, endedAt: 1001 + n, input, outputSpan: 0, tokens: null, spans: [span] };
}

function tempDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-trace-pages-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** How many records the store holds in its traces' database (read from the LMDB files themselves). */
async function recordsIn(dir: string): Promise<number> {
  const env = open({ path: join(dir, 'db'), maxDbs: 64, readOnly: true });
  try {
    return env.openDB({ name: 'run_traces', encoding: 'string' }).getKeysCount();
  } finally {
    await env.close();
  }
}

const ids = (traces: { id: string }[]) => traces.map((trace) => trace.id);

t.test('the traces of a write are a page per flow, and every read sees them one by one', async (t) => {
  const dir = tempDir(t);
  const store = openLmdbStore(dir);
  const many = Array.from({ length: PAGE_MAX + 5 }, (_, n) => traceOf(n, 'fA'));
  const few = [traceOf(0, 'fB'), traceOf(1, 'fB')];
  // Interleaved, as runs of two flows end; another user's run in the same write.
  const written = [...many.slice(0, 3), ...few, ...many.slice(3), traceOf(0, 'fA', 'S0', 'u2')];
  await putTraces(store, written, Date.now() + 60_000);
  await store.close();
  t.equal(await recordsIn(dir), 4, `${written.length} traces in 4 records: fA in two (over ${PAGE_MAX}), fB, and the other user's`);

  const reopened = openLmdbStore(dir);
  t.teardown(() => reopened.close());
  const repo = reopened.runRecords;
  const index = await repo.traceIndex('u1', 'fA');
  t.equal(index.length, many.length);
  t.same(ids(index), ids([...many].reverse()), 'newest first, across both pages');
  t.same(await repo.traces(index.slice(100, 103)), many.slice(many.length - 103, many.length - 100).reverse(), 'a page of the listing reads whole traces');
  t.same(ids(await repo.traceIndex('u1')), ids([...many, ...few].sort((a, b) => b.startedAt - a.startedAt || (a.id < b.id ? 1 : -1))), "a user's listing holds every flow's");
  t.same(await repo.trace('u1', few[1].id), few[1], 'found by id');
  t.equal(await repo.trace('u2', few[1].id), undefined, "another user's trace is not found");
  t.same(ids(await repo.traceIndex('u2')), [`trace-fA-0`], 'and theirs are theirs');
});

t.test('a session that is named like another trace does not hide that trace', async (t) => {
  const store = openLmdbStore(tempDir(t));
  t.teardown(() => store.close());
  const sought = traceOf(1, 'fB');
  // Written first (an earlier page of the same user): its header names the sought id, as a session.
  await putTraces(store, [traceOf(0, 'fA', sought.id)], Date.now() + 60_000);
  await putTraces(store, [sought], Date.now() + 60_000);
  t.same(await store.runRecords.trace('u1', sought.id), sought);
});

t.test('deleting one trace keeps the rest of its page; a flow\'s traces go with their pages', async (t) => {
  const dir = tempDir(t);
  const store = openLmdbStore(dir);
  const page = [0, 1, 2].map((n) => traceOf(n, 'fA'));
  const other = traceOf(0, 'fB');
  await putTraces(store, [...page, other], Date.now() + 60_000);

  await store.runRecords.deleteTrace(page[1]);
  t.equal(await store.runRecords.trace('u1', page[1].id), undefined, 'the trace deleted is gone');
  t.same(await store.runRecords.traces(await store.runRecords.traceIndex('u1', 'fA')), [page[2], page[0]], 'the others of its page read as before');
  await store.runRecords.deleteTrace(page[0]);
  await store.runRecords.deleteTrace(page[2]);
  t.same(await store.runRecords.traceIndex('u1', 'fA'), [], 'the last one deleted takes the page');
  await store.close();
  t.equal(await recordsIn(dir), 1, 'only the other flow\'s page is left');

  const reopened = openLmdbStore(dir);
  t.teardown(() => reopened.close());
  await putTraces(reopened, [traceOf(3, 'fB'), traceOf(4, 'fB')], Date.now() + 60_000);
  t.equal(await reopened.runRecords.deleteForFlow('u1', 'fB'), 3, 'counted by trace, not by page');
  t.same(await reopened.runRecords.traceIndex('u1'), []);
});

t.test('retention removes pages and counts their traces; what was written for longer stays', async (t) => {
  const store = openLmdbStore(tempDir(t));
  t.teardown(() => store.close());
  await putTraces(store, [traceOf(0, 'fA'), traceOf(1, 'fA'), traceOf(0, 'fB')], Date.now() - 1);
  const kept = traceOf(5, 'fA');
  await putTraces(store, [kept], Date.now() + 60_000);
  t.equal(await store.runRecords.expire(Date.now()), 3);
  t.same(await store.runRecords.traces(await store.runRecords.traceIndex('u1')), [kept]);
});

t.test('a page over a mebibyte is split where its rows pass a mebibyte, and they are not JSON text', async (t) => {
  const dir = tempDir(t);
  const store = openLmdbStore(dir);
  const large = [0, 1, 2, 3].map((n) => ({ ...traceOf(n, 'fA'), input: `${n}`.repeat(400_000) }));
  await putTraces(store, large, Date.now() + 60_000);
  t.same(await store.runRecords.trace('u1', large[3].id), large[3]);
  await store.close();
  t.equal(await recordsIn(dir), 2, 'four traces of 400 kB in two pages of two');
  const env = open({ path: join(dir, 'db'), maxDbs: 64, readOnly: true });
  t.teardown(() => env.close());
  for (const { value } of env.openDB({ name: 'run_traces', encoding: 'binary' }).getRange()) {
    const bytes = value as Buffer;
    t.equal(bytes[0], MSGPACK_PAGE, 'the header is msgpack');
    const rows = bytes.subarray(5 + bytes.readUInt32BE(1));
    t.same(unpack(rows).length, 2, 'rows are one msgpack array, not JSON');
    t.ok(bytes.length < 1 << 20, `page of ${bytes.length} bytes`);
  }
});

t.test("a page's rows, encoded one by one under an array header, decode as msgpack's own array of them", async (t) => {
  const packr = new Packr({ useRecords: false });
  for (const count of [0, 1, 15, 16, 65_535, 65_536]) {
    const items = Array.from({ length: count }, (_, n) => (n % 2 === 0 ? n : { n: `item ${n}` }));
    const header = new MsgpackWriter(8);
    header.arrayHeader(count);
    const joined = Buffer.concat([header.copied(), ...items.map((item) => Buffer.from(packr.pack(item)))]);
    t.same(unpack(joined), items, `${count} items`);
  }
});

t.test('a page whose header is a line of JSON (pages written before) still reads; deleting a trace rewrites it as now', async (t) => {
  const dir = tempDir(t);
  const traces = [0, 1, 2].map((n) => traceOf(n, 'fA'));
  const header = JSON.stringify(traces.map((trace) => [trace.startedAt, trace.id, trace.spans.length, trace.sessionId]));
  const rows = new Packr({ useRecords: false }).pack(traces.map(traceRow));
  const before = open({ path: join(dir, 'db'), maxDbs: 64 });
  await before.openDB({ name: 'run_traces', encoding: 'binary' }).put(['u1', 'fA', traces[0].startedAt, traces[0].id], Buffer.concat([Buffer.from(`${header}\n`), rows]));
  await before.close();

  const store = openLmdbStore(dir);
  t.teardown(() => store.close());
  const repo = store.runRecords;
  t.same(await repo.traces(await repo.traceIndex('u1', 'fA')), [...traces].reverse(), 'listed and read, newest first');
  t.same(await repo.trace('u1', traces[1].id), traces[1], 'found by id');
  await repo.deleteTrace(traces[1]);
  t.same(await repo.traces(await repo.traceIndex('u1', 'fA')), [traces[2], traces[0]], 'the rest of its page reads after the rewrite');
  t.same(await repo.trace('u1', traces[2].id), traces[2], 'and is found by id in the page as written now');
});

t.test('a write must take every trace prepared since the last: one that leaves some out is refused, the next is whole', async (t) => {
  const store = openLmdbStore(tempDir(t));
  t.teardown(() => store.close());
  const repo = store.runRecords;
  const prepared = [0, 1].map((n) => repo.prepare(traceSourceOf(traceOf(n, 'fA'))));
  await t.rejects(repo.put([prepared[1]], Date.now() + 60_000), /1 traces written where 2 were prepared/);
  t.same(await repo.traceIndex('u1'), [], 'nothing of it was written');
  const later = traceOf(5, 'fA');
  await putTraces(store, [later], Date.now() + 60_000);
  t.same(await repo.traces(await repo.traceIndex('u1')), [later], 'the next write reads back whole');
});
