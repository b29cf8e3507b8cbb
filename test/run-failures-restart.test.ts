/**
 * SIGKILL with recovery, for every entry point at once: the real CLI is killed while a v1 run, a v2 sync, stream and
 * background job, a streamed and a background response run, and a webhook job waits for a slot. Callers still
 * connected see their connection end; after a restart nothing is left in progress: durable runs that were running
 * end failed (interrupted) in their own shape, the queued webhook job runs, and runs that kept no record have none.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import t from 'tap';
import { edge, flow, node } from './support/langflow-json.js';
import { startModelServer } from './support/model-server.js';
import { chatModelFlow, HEADER_KEY, openaiModelTemplate } from './support/model-flows.js';
import { serveProcess } from './support/process.js';
import { readSse } from './support/workflows.js';

const KEY = 'sk-restart-failures-key-0123456789abcdefghijklmn';
const TERMINAL = new Set(['completed', 'failed', 'cancelled', 'timed_out']);
const inputs = { 'ChatInput-in001.input_value': 'hi' };

t.test('SIGKILL mid-run: every entry point is left in a clear state after the restart', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-kill-'));
  const model = await startModelServer();
  t.teardown(async () => {
    await model.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const env = { FLOWSVC_PORT: '0', FLOWSVC_DATA_DIR: dir, FLOWSVC_LOG_LEVEL: 'warn', FLOWSVC_API_KEY: KEY, FLOWSVC_JOB_CONCURRENCY: '2', OPENAI_BASE_URL: model.baseURL };
  const first = await serveProcess(env);
  const api = (url: string) => (path: string, init: { method?: string; json?: unknown; body?: string; signal?: AbortSignal } = {}) =>
    fetch(`${url}${path}`, {
      method: init.method ?? 'GET',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json', [`x-flowsvc-global-var-${HEADER_KEY}`]: 'sk-x' },
      body: init.body ?? (init.json === undefined ? undefined : JSON.stringify(init.json)),
      signal: init.signal,
    });
  const call = api(first.url);
  const create = async (body: unknown) => (await (await call('/api/v1/flows/', { method: 'POST', json: body })).json()).id as string;
  const modelFlow = await create(chatModelFlow('Killed', 'LanguageModelComponent', openaiModelTemplate()));
  const hookFlow = await create(flow('Hook', [node('Webhook-hook1', 'Webhook'), node('ChatOutput-out01', 'ChatOutput')], [edge('Webhook-hook1', 'output_data', 'ChatOutput-out01', 'input_value')]));
  const responses = (url: string) => new OpenAI({ baseURL: `${url}/api/v1`, apiKey: 'placeholder', maxRetries: 0, defaultHeaders: { 'x-api-key': KEY, [`X-FLOWSVC-GLOBAL-VAR-${HEADER_KEY}`]: 'sk-x' } });

  // Six runs reach the model, which answers slowly enough for all of them to be running at the kill.
  const slow = { tokens: Array.from({ length: 1000 }, (_, i) => ` t${i}`), tokenDelayMs: 20 };
  model.script(slow, slow, slow, slow, slow, slow);
  let reached = 0;
  const allReached = new Promise<void>((resolve) => {
    const next = () => void model.nextChat().then(() => (++reached === 6 ? resolve() : next()));
    next();
  });
  const v1 = call(`/api/v1/run/${modelFlow}`, { method: 'POST', json: { input_value: 'hi' } }).then((r) => r.json());
  const v2Sync = call('/api/v2/workflows', { method: 'POST', json: { flow_id: modelFlow, inputs, globals: { [HEADER_KEY]: 'sk-x' } } }).then((r) => r.json());
  let streamJob = '';
  const v2Stream = call('/api/v2/workflows', { method: 'POST', json: { flow_id: modelFlow, stream: true, inputs, globals: { [HEADER_KEY]: 'sk-x' } } }).then((r) =>
    readSse(r, (e) => (streamJob ||= e.data.job_id)),
  );
  const background = (await (await call('/api/v2/workflows', { method: 'POST', json: { flow_id: modelFlow, background: true, inputs, globals: { [HEADER_KEY]: 'sk-x' } } })).json()).job_id;
  const pending = await responses(first.url).responses.create({ model: modelFlow, input: 'hi', background: true });
  let streamedResponse = '';
  const responseStream = (async () => {
    for await (const event of await responses(first.url).responses.create({ model: modelFlow, input: 'hi', stream: true })) if (event.type === 'response.created') streamedResponse = event.response.id;
  })();
  // Each caller's fate is heard from the start: a connection ending unheard would be an unhandled rejection.
  const connectionsCut = Object.fromEntries(Object.entries({ v1, v2Sync, v2Stream, responseStream }).map(([name, call]) => [name, call.then(() => false, () => true)]));
  await allReached;
  // Both background slots are taken: the webhook's job waits, recorded as queued.
  const hook = (await (await call(`/api/v1/webhook/${hookFlow}`, { method: 'POST', body: '{"text":"after the restart"}' })).json()).job_id;
  t.equal((await (await call(`/api/v2/workflows?job_id=${hook}`)).json()).status, 'queued');

  first.child.kill('SIGKILL');
  await new Promise((resolve) => first.child.once('exit', resolve));
  for (const [name, cut] of Object.entries(connectionsCut)) t.ok(await cut, `${name}: the caller sees its connection end`);

  const second = await serveProcess(env);
  t.teardown(() => second.child.kill('SIGKILL'));
  const again = api(second.url);
  const job = async (id: string) => {
    for (let i = 0; i < 2000; i++) {
      const body = await (await again(`/api/v2/workflows?job_id=${id}`)).json();
      if (TERMINAL.has(body.status)) return body;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`job ${id} never ended`);
  };
  for (const [name, id] of Object.entries({ background, stream: streamJob })) {
    const ended = await job(id);
    t.match(ended, { status: 'failed', errors: [{ code: 'JOB_INTERRUPTED' }] }, `v2 ${name}: interrupted`);
    const log = await readSse(await again(`/api/v2/workflows?job_id=${id}&stream=true`));
    t.equal(log.at(-1)!.data.status, 'failed', `v2 ${name}: its log ends with the failure`);
  }
  t.match(await job(hook), { status: 'completed', outputs: { 'ChatOutput-out01': { content: /after the restart/ } } }, 'the queued webhook job ran');
  const client = responses(second.url);
  t.match(await client.responses.retrieve(pending.id), { status: 'failed', error: { message: /stopped while this response was running/ } }, 'background response: interrupted');
  const unrecorded = await client.responses.retrieve(streamedResponse).then(() => undefined, (e: unknown) => e);
  t.type(unrecorded, OpenAI.NotFoundError, 'a streamed response is recorded only when it ends: none is left in progress');
});
