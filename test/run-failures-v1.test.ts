/**
 * The v1 entry points (run, its stream, run/advanced, process, predict) and the CLI's `run`, each driven through
 * the same failure cases: each answers in its own shape (a `{"detail"}` error with the failure table's status, an
 * `error` frame ending a stream, a message and exit code 1), and a client that leaves cancels the model call.
 * A v1 run keeps no record, and has no stop: those cells are the v2 and responses files'.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { arrange, failureStack, KEY_HEADER, readFrames, SAYS, serverFor, withKey, type FailureCase } from './support/failure-cases.js';
import { chatModelFlow, HEADER_KEY, openaiModelTemplate } from './support/model-flows.js';
import { runCli } from './support/process.js';
import type { TestServer } from './support/server.js';

type Batch = (server: TestServer, flowId: string, headers: Record<string, string>, signal?: AbortSignal) => Promise<Response>;

const post = (path: string, json: unknown): Batch => (server, flowId, headers, signal) => server.request(path.replace(':flow', flowId), { method: 'POST', json, headers, signal });

/** The batch entry points: each answers a failure with an HTTP error. */
const BATCH: Record<string, Batch> = {
  run: post('/api/v1/run/:flow', { input_value: 'hi' }),
  'run/advanced': post('/api/v1/run/advanced/:flow', { inputs: [{ components: [], input_value: 'hi', type: 'chat' }] }),
  process: post('/api/v1/process/:flow', { input_value: 'hi' }),
  predict: post('/api/v1/predict/:flow', { input_value: 'hi' }),
};

const HTTP_STATUS = { component: 500, missing_variable: 400, timeout: 408 } as const;

t.test('v1 batch entry points: each failure is a {"detail"} error with its status; a client that leaves cancels the run', async (t) => {
  const stack = await failureStack(t);
  for (const [name, call] of Object.entries(BATCH)) {
    for (const c of ['component', 'missing_variable', 'timeout'] as const) {
      arrange(stack.model, c);
      const server = serverFor(stack, c);
      const res = await call(server, stack.flowOn(server), withKey(c) ? KEY_HEADER : {});
      t.equal(res.status, HTTP_STATUS[c], `${name}, ${c}: status`);
      const body = await res.json();
      t.same(Object.keys(body), ['detail'], `${name}, ${c}: Langflow's error body`);
      t.match(body.detail, SAYS[c], `${name}, ${c}: says why`);
    }
    arrange(stack.model, 'client_gone');
    const controller = new AbortController();
    const reached = stack.model.nextChat();
    const aborted = stack.model.nextAbort();
    const request = call(stack.server, stack.flowOn(stack.server), KEY_HEADER, controller.signal).catch(() => undefined);
    await reached;
    controller.abort();
    t.ok((await aborted).aborted, `${name}, client_gone: the model call was cancelled with the run`);
    await request;
  }
});

t.test('v1 stream: each failure ends the stream with an error frame and no end frame; a client that leaves cancels the run', async (t) => {
  const stack = await failureStack(t);
  for (const c of ['component', 'missing_variable', 'timeout'] as const) {
    arrange(stack.model, c);
    const server = serverFor(stack, c);
    const res = await server.request(`/api/v1/run/${stack.flowOn(server)}?stream=true`, { method: 'POST', json: { input_value: 'hi' }, headers: withKey(c) ? KEY_HEADER : {} });
    t.equal(res.status, 200, `${c}: the stream had started`);
    const frames = await readFrames(res);
    const last = frames.at(-1)!;
    t.equal(last.event, 'error', `${c}: the last frame is the error`);
    t.match(last.data.error, SAYS[c], `${c}: it says why`);
    t.notOk(frames.some((f) => f.event === 'end'), `${c}: no end frame`);
  }
  arrange(stack.model, 'client_gone');
  const controller = new AbortController();
  const aborted = stack.model.nextAbort();
  const res = await stack.server.request(`/api/v1/run/${stack.flowOn(stack.server)}?stream=true`, { method: 'POST', json: { input_value: 'hi' }, headers: KEY_HEADER, signal: controller.signal });
  await readFrames(res, (frame) => frame.event === 'token' && controller.abort()).catch(() => undefined);
  t.ok((await aborted).aborted, 'client_gone: the model call was cancelled with the run');
});

t.test('the CLI: each failure is a message on stderr and exit code 1', async (t) => {
  const stack = await failureStack(t);
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-cli-failures-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'flow.json');
  writeFileSync(file, JSON.stringify(chatModelFlow('CLI failing', 'LanguageModelComponent', openaiModelTemplate())));
  const cases: FailureCase[] = ['component', 'missing_variable', 'timeout'];
  for (const c of cases) {
    arrange(stack.model, c);
    const env: Record<string, string> = { OPENAI_BASE_URL: stack.model.baseURL, FLOWSVC_JOB_TIMEOUT_SECONDS: '1', FLOWSVC_FALLBACK_TO_ENV_VAR: 'true' };
    if (withKey(c)) env[HEADER_KEY] = 'sk-test';
    const { code, stderr } = await runCli(['run', file, '--input', 'hi'], env);
    t.equal(code, 1, `${c}: exit code`);
    t.match(stderr, SAYS[c as keyof typeof SAYS], `${c}: says why`);
  }
});
