/**
 * Durable v2 jobs: the real CLI is killed with SIGKILL while one job runs and another waits; after a restart the
 * finished job reads back as before (reply and event log), the queued job runs, and the running one is failed
 * with JOB_INTERRUPTED instead of staying in_progress forever. A queued job's header variables are kept (sealed)
 * with it, so that it runs with them after the restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { echoFlow } from './support/langflow-json.js';
import { startModelServer } from './support/model-server.js';
import { chatModelFlow, openaiModelTemplate } from './support/model-flows.js';
import { serveProcess } from './support/process.js';
import { readSse } from './support/workflows.js';
import { openLmdbStore } from '../src/store/lmdb/lmdb-store.js';

const KEY = 'sk-restart-test-key-0123456789abcdefghijklmnop';
const TERMINAL = new Set(['completed', 'failed', 'cancelled', 'timed_out']);

/** A data dir and a stand-in model for a service run once, killed and run again; one job at a time. */
async function restartable(t: Test) {
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-jobs-'));
  const model = await startModelServer();
  t.teardown(async () => {
    await model.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, model, env: { FLOWSVC_PORT: '0', FLOWSVC_DATA_DIR: dir, FLOWSVC_LOG_LEVEL: 'warn', FLOWSVC_API_KEY: KEY, FLOWSVC_JOB_CONCURRENCY: '1', OPENAI_BASE_URL: model.baseURL } };
}

t.test('SIGKILL mid-run: every job ends in a clear terminal state after the restart', async (t) => {
  const { model, env } = await restartable(t);

  const first = await serveProcess(env);
  const api = (url: string) => (path: string, init: { method?: string; json?: unknown } = {}) =>
    fetch(`${url}${path}`, { method: init.method ?? 'GET', headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, body: init.json === undefined ? undefined : JSON.stringify(init.json) });
  const call = api(first.url);
  const create = async (body: unknown) => (await (await call('/api/v1/flows/', { method: 'POST', json: body })).json()).id as string;
  const echoId = await create(echoFlow('Echo restart'));
  const modelId = await create(chatModelFlow('Model restart', 'LanguageModelComponent', openaiModelTemplate()));
  const submit = async (flowId: string, text: string) =>
    (await (await call('/api/v2/workflows', { method: 'POST', json: { flow_id: flowId, background: true, inputs: { 'ChatInput-in001.input_value': text }, globals: { OPENAIKEY: 'sk-x' } } })).json()).job_id as string;
  const status = async (get: ReturnType<typeof api>, id: string) => (await (await get(`/api/v2/workflows?job_id=${id}`)).json()) as any;
  const until = async (get: ReturnType<typeof api>, id: string, accept: (s: string) => boolean) => {
    for (let i = 0; i < 2000; i++) {
      const body = await status(get, id);
      if (accept(body.status)) return body;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`job ${id} never reached the wanted status`);
  };

  const finished = await submit(echoId, 'finished before the kill');
  const finishedReply = await until(call, finished, (s) => TERMINAL.has(s));
  const finishedLog = await readSse(await call(`/api/v2/workflows?job_id=${finished}&stream=true`));
  model.script({ tokens: Array.from({ length: 500 }, (_, i) => ` t${i}`), tokenDelayMs: 20 });
  const running = await submit(modelId, 'running at the kill');
  await until(call, running, (s) => s === 'in_progress');
  const queued = await submit(echoId, 'queued at the kill');
  t.equal((await status(call, queued)).status, 'queued', 'concurrency 1: the second job waits');

  first.child.kill('SIGKILL');
  await new Promise((resolve) => first.child.once('exit', resolve));

  const second = await serveProcess(env);
  t.teardown(() => second.child.kill('SIGKILL'));
  const again = api(second.url);

  t.same(await status(again, finished), finishedReply, 'the finished job reads back as before');
  t.same(await readSse(await again(`/api/v2/workflows?job_id=${finished}&stream=true`)), finishedLog, 'with its whole event log');

  const interrupted = await until(again, running, (s) => TERMINAL.has(s));
  t.match(interrupted, { object: 'response', status: 'failed', errors: [{ code: 'JOB_INTERRUPTED' }] });
  const interruptedLog = await readSse(await again(`/api/v2/workflows?job_id=${running}&stream=true`));
  t.equal(interruptedLog.at(-1)!.data.status, 'failed', 'its log ends with the failure');

  const ran = await until(again, queued, (s) => TERMINAL.has(s));
  t.match(ran, { status: 'completed', outputs: { 'ChatOutput-out01': { content: 'queued at the kill' } } });
});

t.test('a queued job keeps its header variables through a SIGKILL: they reach its run, never its reply, and go once it ends', async (t) => {
  const { dir, model, env } = await restartable(t);
  const first = await serveProcess(env);
  const call = (url: string, path: string, json?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${url}${path}`, { method: json === undefined ? 'GET' : 'POST', headers: { 'x-api-key': KEY, 'content-type': 'application/json', ...headers }, body: json === undefined ? undefined : JSON.stringify(json) });
  const flowId = (await (await call(first.url, '/api/v1/flows/', chatModelFlow('Model headers', 'LanguageModelComponent', openaiModelTemplate()))).json()).id as string;
  const submit = async (text: string, body: object, headers: Record<string, string>) =>
    (await (await call(first.url, '/api/v2/workflows', { flow_id: flowId, background: true, inputs: { 'ChatInput-in001.input_value': text }, ...body }, headers)).json()).job_id as string;

  model.script({ tokens: Array.from({ length: 500 }, (_, i) => ` t${i}`), tokenDelayMs: 20 });
  const holding = model.nextChat();
  await submit('holding the only slot', { globals: { OPENAIKEY: 'sk-body' } }, {});
  await holding;
  const queued = await submit('queued with a header key', {}, { 'X-FLOWSVC-GLOBAL-VAR-OPENAIKEY': 'sk-from-header' });
  first.child.kill('SIGKILL');
  await new Promise((resolve) => first.child.once('exit', resolve));

  const second = await serveProcess(env);
  // The job's event stream ends with its terminal status: the event waited for.
  const log = await readSse(await call(second.url, `/api/v2/workflows?job_id=${queued}&stream=true`));
  t.ok(TERMINAL.has(log.at(-1)!.data.status), 'the queued job ran to its end after the restart');
  const reply = await (await call(second.url, `/api/v2/workflows?job_id=${queued}`)).json();
  t.equal(reply.status, 'completed');
  const ranChat = model.chats.find((chat) => JSON.stringify(chat.body).includes('queued with a header key'));
  t.equal(ranChat?.headers.authorization, 'Bearer sk-from-header', 'the run after the restart called the model with the header key');
  t.notMatch(JSON.stringify(reply), /sk-from-header/, 'the header key is not echoed');
  second.child.kill('SIGKILL');
  await new Promise((resolve) => second.child.once('exit', resolve));

  const store = openLmdbStore(dir);
  t.teardown(() => store.close());
  const record = await store.jobs.get(queued);
  t.equal(record?.status, 'completed');
  t.equal(record?.header_globals_sealed, undefined, 'the finished record no longer holds the header variables');
});
