/**
 * What a finished v2 job leaves in the store, encoded once and shared: the sync reply's text is the record's
 * response and the log's final event; the log replays (after a restart too) exactly as it was streamed live; and
 * records written as msgpack objects by earlier versions still read.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import t from 'tap';
import { openLmdbStore } from '../src/store/lmdb/lmdb-store.js';
import { createFlow } from './support/flow-helpers.js';
import { echoFlow, flow, node } from './support/langflow-json.js';
import { startTestServer } from './support/server.js';
import { getJob, postWorkflow, readSse } from './support/workflows.js';

const input = (text: string) => ({ 'ChatInput-in001.input_value': text, 'ChatInput-in001.session_id': 'stored' });

/** The raw text of an SSE reply (to compare frames byte for byte). */
const sseText = async (res: Response) => {
  t.equal(res.status, 200);
  return res.text();
};

t.test('sync jobs: reply, record and log agree, live and after a restart', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowsvc-stored-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const first = await startTestServer({}, dataDir);
  t.teardown(() => first.close());
  const echo = await createFlow(first, echoFlow('Stored echo'));
  const calc = await createFlow(first, flow('Stored calc', [node('Calc-1', 'CalculatorComponent', { expression: '2+' }, 'Calculator')], []));

  const okRes = await postWorkflow(first, { flow_id: echo.id, inputs: input('kept "quoted" ü'), globals: { STORED_NAME: 'v' } });
  t.equal(okRes.status, 200);
  t.equal(okRes.headers.get('content-type'), 'application/json');
  const ok = await okRes.json();
  t.match(ok, { status: 'completed', globals: { STORED_NAME: 'v' }, outputs: { 'ChatOutput-out01': { content: 'kept "quoted" ü' } } });
  const failed = await (await postWorkflow(first, { flow_id: calc.id })).json();
  t.match(failed, { status: 'failed', errors: [{ code: 'EXECUTION_ERROR' }], globals: {} });

  const observe = async (server: typeof first, reply: any) => {
    const status = await (await getJob(server, reply.job_id)).json();
    const text = await sseText(await getJob(server, reply.job_id, '&stream=true'));
    const log = await readSse(await getJob(server, reply.job_id, '&stream=true'));
    return { status, text, log };
  };

  const before = { ok: await observe(first, ok), failed: await observe(first, failed) };
  for (const [name, reply] of [['completed', ok], ['failed', failed]] as const) {
    const { status, log } = before[name === 'completed' ? 'ok' : 'failed'];
    t.same(status, reply, `${name}: GET answers the sync reply, globals echo included`);
    t.same(log.map((e) => e.id), log.map((_, i) => i + 1), `${name}: the log is numbered from 1 without a gap`);
    t.same(log.at(-1), { id: log.length, event: 'job_status', data: { job_id: reply.job_id, flow_id: reply.flow_id, status: reply.status, timestamp: log.at(-1)!.data.timestamp, response: reply } }, `${name}: the final event carries the reply`);
  }
  t.same(before.ok.log.map((e) => e.event), ['job_status', 'vertices_sorted', 'add_message', 'end_vertex', 'add_message', 'end_vertex', 'output', 'job_status']);
  t.ok(before.failed.log.some((e) => e.event === 'error'), 'a failed job logs its error');

  await first.stop();
  const second = await startTestServer({}, dataDir);
  t.teardown(() => second.close());
  t.same(await observe(second, ok), before.ok, 'after a restart: the same status and the same log, byte for byte');
  t.same(await observe(second, failed), before.failed, 'a failed job too');
  t.same((await readSse(await getJob(second, ok.job_id, '&stream=true&sequence_id=6'))).map((e) => e.id), [7, 8], 'and it resumes');
});

t.test('a streamed job replays byte for byte what its watchers saw live', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const echo = await createFlow(server, echoFlow('Streamed echo'));
  const live = await sseText(await postWorkflow(server, { flow_id: echo.id, stream: true, inputs: input('streamed') }));
  const jobId = /"job_id":"([^"]+)"/.exec(live)![1];
  t.equal(await sseText(await getJob(server, jobId, '&stream=true')), live);
});

t.test('a job record stored as a msgpack object (before records were JSON text) still reads', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-oldjob-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const record = { id: 'job-old', flow_id: 'f', user_id: 'u', mode: 'background' as const, status: 'queued' as const, created_at: '2025-01-01T00:00:00.000Z', inputs: { 'A.b': 1 }, errors: [], event_count: 0 };
  const env = open({ path: join(dir, 'db'), maxDbs: 64, encoding: 'msgpack' });
  await env.openDB({ name: 'jobs', encoding: 'msgpack' }).put(record.id, record);
  await env.openDB({ name: 'jobs_unfinished', encoding: 'msgpack' }).put(record.id, null);
  await env.close();

  const store = openLmdbStore(dir);
  t.teardown(() => store.close());
  t.same(await store.jobs.get(record.id), record);
  t.same(await store.jobs.unfinished(), [record], 'recovery finds it');
  await store.jobs.put({ ...record, status: 'in_progress' });
  t.same(await store.jobs.get(record.id), { ...record, status: 'in_progress' }, 'and a rewrite reads back');
});
