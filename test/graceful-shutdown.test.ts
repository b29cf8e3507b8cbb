/**
 * A graceful stop with the real CLI. SIGTERM during a load of runs: the service stops listening, answers every
 * request it had taken, finishes its runs, leaves queued jobs queued and exits 0; a second service on the same
 * data dir and port then holds every run the first one acknowledged (a rolling restart loses none). A run still
 * going at FLOWSVC_SHUTDOWN_GRACE_SECONDS ends interrupted: its waiting caller is answered and its record says so.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { echoFlow } from './support/langflow-json.js';
import { startModelServer, type ModelServer } from './support/model-server.js';
import { chatModelFlow, HEADER_KEY, openaiModelTemplate } from './support/model-flows.js';
import { serveProcess } from './support/process.js';
import { readSse } from './support/workflows.js';

const KEY = 'sk-graceful-test-key-0123456789abcdefghijklmnop';

type Call = (path: string, init?: { method?: string; json?: unknown }) => Promise<Response>;
const api = (base: () => string): Call => (path, init = {}) =>
  fetch(`${base()}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'x-api-key': KEY, 'content-type': 'application/json', [`X-FLOWSVC-GLOBAL-VAR-${HEADER_KEY}`]: 'sk-x' },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

/**
 * A connection refused, reset or closed before an answer: a client of any server that stops meets these (a request
 * sent on a kept-alive connection as the server closes it). They are allowed when the request was never taken,
 * which the test checks afterwards: such a request left no message behind.
 */
const cutOff = (error: unknown) => ['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET'].includes((error as { cause?: { code?: string } }).cause?.code ?? '');

/** A job once it has ended: its event log, followed as SSE, ends with the job; then its record is read. */
async function settled(call: Call, jobId: string): Promise<any> {
  await readSse(await call(`/api/v2/workflows?job_id=${jobId}&stream=true`));
  return (await call(`/api/v2/workflows?job_id=${jobId}`)).json();
}

/** A data dir, a stand-in model and a service over them; torn down with the test. */
async function serviceWithModel(t: Test, env: Record<string, string>, tokenDelayMs = 0) {
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-graceful-'));
  const model = await startModelServer({ tokenDelayMs });
  t.teardown(async () => {
    await model.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const fullEnv = { FLOWSVC_PORT: '0', FLOWSVC_DATA_DIR: dir, FLOWSVC_LOG_LEVEL: 'info', FLOWSVC_API_KEY: KEY, OPENAI_BASE_URL: model.baseURL, ...env };
  const first = await serveProcess(fullEnv);
  return { model, env: fullEnv, first };
}

/** A flow whose model answers for a minute (each of the next `runs` runs), far past any deadline in these tests. */
async function slowModelFlow(call: Call, model: ModelServer, runs: number): Promise<string> {
  model.script(...Array.from({ length: runs }, () => ({ tokens: Array.from({ length: 600 }, (_, i) => ` t${i}`), tokenDelayMs: 100 })));
  return ((await (await call('/api/v1/flows/', { method: 'POST', json: chatModelFlow('Slow model', 'LanguageModelComponent', openaiModelTemplate()) })).json()) as any).id;
}

t.test('SIGTERM under load: every request taken is answered, and the next service holds every acknowledged run', async (t) => {
  const { model, env, first } = await serviceWithModel(t, { FLOWSVC_JOB_CONCURRENCY: '2' }, 25);
  let base = first.url;
  const call = api(() => base);
  const create = async (body: unknown) => ((await (await call('/api/v1/flows/', { method: 'POST', json: body })).json()) as any).id as string;
  const modelFlow = await create(chatModelFlow('Graceful model', 'LanguageModelComponent', openaiModelTemplate()));
  const echo = await create(echoFlow('Graceful echo'));

  const answeredRuns: { session: string; text: string }[] = [];
  const acknowledgedJobs: { id: string; session: string; text: string }[] = [];
  const notTaken: string[] = [];
  const unexpected: string[] = [];
  const answered = () => answeredRuns.length + acknowledgedJobs.length;
  let restarted!: () => void;
  const secondUp = new Promise<void>((resolve) => (restarted = resolve));
  let warmedUp!: () => void;
  const enoughAnswered = new Promise<void>((resolve) => (warmedUp = resolve));
  let afterRestart = 0;
  let secondServing = false;

  // Four clients send model runs (about 100 ms each) and background jobs, alternately, until each has had four
  // answers from the second service. A refused connection waits for the second service and is sent again.
  const client = async (n: number) => {
    let fromSecond = 0;
    for (let i = 0; fromSecond < 4; i++) {
      const text = `client ${n} request ${i}`;
      const session = `graceful-${n}-${i}`;
      const toSecond = secondServing;
      try {
        if (i % 2 === 0) {
          const res = await call(`/api/v1/run/${modelFlow}`, { method: 'POST', json: { input_value: text, session_id: session } });
          if (res.status === 200) answeredRuns.push({ session, text });
          else unexpected.push(`run ${text}: ${res.status} ${await res.text()}`);
        } else {
          const res = await call('/api/v2/workflows', { method: 'POST', json: { flow_id: echo, background: true, inputs: { 'ChatInput-in001.input_value': text, 'ChatInput-in001.session_id': session } } });
          const body = (await res.json()) as any;
          if (res.status === 200 && body.job_id) acknowledgedJobs.push({ id: body.job_id, session, text });
          else unexpected.push(`job ${text}: ${res.status} ${JSON.stringify(body)}`);
        }
        if (toSecond) fromSecond++, afterRestart++;
        if (answered() >= 12) warmedUp();
      } catch (error) {
        if (cutOff(error)) notTaken.push(session);
        else unexpected.push(`${text}: ${String((error as Error).cause ?? error)}`);
        await secondUp;
      }
    }
  };
  const load = Promise.all([0, 1, 2, 3].map(client));

  // The stop comes under load: after a dozen answers, as a model call begins.
  await enoughAnswered;
  await model.nextChat();
  const port = new URL(first.url).port;
  const firstExit = exited(first.child);
  first.child.kill('SIGTERM');
  const atSignal = answered();
  t.equal(await firstExit, 0, 'the first service exits 0');
  t.ok(answered() > atSignal, `requests under way at the signal were answered (${answered() - atSignal})`);
  t.match(first.output(), /shutting down/);
  t.match(first.output(), /"drained":true/, 'everything under way finished within the grace period');

  const second = await serveProcess({ ...env, FLOWSVC_PORT: port });
  t.teardown(() => second.child.kill('SIGKILL'));
  base = second.url;
  secondServing = true;
  restarted();
  await load;
  t.equal(afterRestart, 16, 'the clients carried on against the second service');

  t.same(unexpected, [], 'no request failed in another way');
  for (const { session, text } of answeredRuns) {
    const messages = (await (await call(`/api/v1/monitor/messages?session_id=${session}`)).json()) as any[];
    t.same(messages.map((m) => m.text), [text, `You said: ${text}`], `${session}: both messages stored`);
  }
  for (const { id, text } of acknowledgedJobs) {
    const job = await settled(call, id);
    t.match(job, { status: 'completed', outputs: { 'ChatOutput-out01': { content: text } } }, `job "${text}" completed`);
  }
  for (const session of notTaken) {
    const messages = (await (await call(`/api/v1/monitor/messages?session_id=${session}`)).json()) as any[];
    t.same(messages, [], `${session}: its connection failed, and it was never taken`);
  }
});

t.test('at the grace deadline a run still going ends interrupted: its caller is answered and its record says so', async (t) => {
  const { model, env, first } = await serviceWithModel(t, { FLOWSVC_SHUTDOWN_GRACE_SECONDS: '0.5' });
  const call = api(() => first.url);
  const flow = await slowModelFlow(call, model, 2);

  const job = ((await (await call('/api/v2/workflows', { method: 'POST', json: { flow_id: flow, background: true, inputs: { 'ChatInput-in001.input_value': 'slow job' } } })).json()) as any).job_id;
  await model.nextChat();
  const waiting = call(`/api/v1/run/${flow}`, { method: 'POST', json: { input_value: 'slow run' } });
  await model.nextChat();

  const code = exited(first.child);
  first.child.kill('SIGTERM');
  const answer = await waiting;
  t.ok(answer.status >= 500, `the waiting caller is answered (${answer.status}), not cut off`);
  t.match(await answer.json(), { detail: String });
  t.equal(await code, 0, 'the service exits 0');
  t.match(first.output(), /"drained":false/);

  const second = await serveProcess(env);
  t.teardown(() => second.child.kill('SIGKILL'));
  t.notMatch(second.output(), /runs left unfinished by the last process recovered/, 'nothing was left for recovery');
  const record = (await (await api(() => second.url)(`/api/v2/workflows?job_id=${job}`)).json()) as any;
  t.match(record, { status: 'failed', errors: [{ code: 'JOB_INTERRUPTED' }] }, 'the job reads interrupted');
});

t.test('a second signal ends the wait at once', async (t) => {
  const { model, first } = await serviceWithModel(t, { FLOWSVC_SHUTDOWN_GRACE_SECONDS: '600' });
  const call = api(() => first.url);
  const flow = await slowModelFlow(call, model, 1);
  const waiting = call(`/api/v1/run/${flow}`, { method: 'POST', json: { input_value: 'slow run' } });
  await model.nextChat();

  const code = exited(first.child);
  first.child.kill('SIGINT');
  await new Promise<void>((resolve) => {
    const seen = () => (/shutting down/.test(first.output()) ? resolve() : undefined);
    first.child.stdout!.on('data', seen);
    first.child.stderr!.on('data', seen);
    seen();
  });
  first.child.kill('SIGINT');
  t.ok((await waiting).status >= 500, 'the caller is answered');
  t.equal(await code, 0);
  t.match(first.output(), /"drained":false/);
});
