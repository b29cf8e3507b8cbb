/**
 * The v2 entry points (sync, stream, background) and the webhook (a background v2 job), each driven through the
 * same failure cases: each answers in v2's shape (a 200 reply with the status and an ErrorDetail, a 408 for a sync
 * timeout, a stream ending with the final job_status), and the stored job agrees with what the caller was told.
 */
import t, { type Test } from 'tap';
import { arrange, failureStack, KEY_GLOBALS, MODEL_NODE, SAYS, serverFor, withKey, type FailureCase, type FailureStack } from './support/failure-cases.js';
import type { TestServer } from './support/server.js';
import { getJob, postWorkflow, readSse, stopJob, waitForJob } from './support/workflows.js';

const inputs = { 'ChatInput-in001.input_value': 'hi' };

/** Each case's status and error code in a v2 reply and record. */
const EXPECTED: Record<FailureCase, { status: string; code: string }> = {
  component: { status: 'failed', code: 'EXECUTION_ERROR' },
  missing_variable: { status: 'failed', code: 'MISSING_VARIABLE' },
  timeout: { status: 'timed_out', code: 'EXECUTION_TIMEOUT' },
  stop: { status: 'cancelled', code: 'JOB_CANCELLED' },
  client_gone: { status: 'cancelled', code: 'JOB_CANCELLED' },
};

const body = (c: FailureCase, flowId: string, extra: Record<string, unknown>) => ({ flow_id: flowId, inputs, globals: withKey(c) ? KEY_GLOBALS : {}, ...extra });

/** The stored job as GET answers it, once it ended. */
async function recordAgrees(t: Test, server: TestServer, jobId: string, c: FailureCase, told?: unknown) {
  const record = await waitForJob(server, jobId);
  t.match(record, { object: 'response', status: EXPECTED[c].status, errors: [{ code: EXPECTED[c].code }] }, `${c}: the stored job says the same`);
  if (c in SAYS) t.match(record.errors[0].error, SAYS[c as keyof typeof SAYS], `${c}: and why`);
  if (c === 'component') t.match(record.errors[0].details, { component_id: MODEL_NODE.id, display_name: MODEL_NODE.name });
  if (told !== undefined) t.same(record, told, `${c}: exactly the reply the caller got`);
}


/** Waits until the run reached its model call, then does `act`. */
async function whenModelCalled(stack: FailureStack, act: () => Promise<unknown> | void) {
  await stack.model.nextChat();
  await act();
}

t.test('v2 sync: a failure is a 200 reply with its status and ErrorDetail, a timeout a 408; the record agrees', async (t) => {
  const stack = await failureStack(t);
  for (const c of ['component', 'missing_variable'] as const) {
    arrange(stack.model, c);
    const res = await postWorkflow(stack.server, body(c, stack.flowOn(stack.server), {}));
    t.equal(res.status, 200, `${c}: a run that fails is a reply`);
    const reply = await res.json();
    t.match(reply, { status: EXPECTED[c].status, errors: [{ code: EXPECTED[c].code }] });
    await recordAgrees(t, stack.server, reply.job_id, c, reply);
  }
  arrange(stack.model, 'timeout');
  const timedOut = await postWorkflow(stack.quick, body('timeout', stack.flowOn(stack.quick), {}));
  t.equal(timedOut.status, 408, 'timeout: 408');
  t.match(await timedOut.json(), { code: 'EXECUTION_TIMEOUT', detail: SAYS.timeout });
  arrange(stack.model, 'client_gone');
  const controller = new AbortController();
  const aborted = stack.model.nextAbort();
  const request = postWorkflow(stack.server, body('client_gone', stack.flowOn(stack.server), {}), { signal: controller.signal } as never).catch(() => undefined);
  await whenModelCalled(stack, () => controller.abort());
  t.ok((await aborted).aborted, 'client_gone: the model call was cancelled with the run');
  await request;
});

t.test('v2 stream: every failure ends the stream with the final job_status; stop and a client leaving cancel; the record agrees', async (t) => {
  const stack = await failureStack(t);
  for (const c of ['component', 'missing_variable', 'timeout', 'stop'] as const) {
    arrange(stack.model, c);
    const server = serverFor(stack, c);
    const res = await postWorkflow(server, body(c, stack.flowOn(server), { stream: true }));
    let jobId = '';
    const events = await readSse(res, (event) => {
      if (event.event === 'job_status' && !jobId) {
        jobId = event.data.job_id;
        if (c === 'stop') void whenModelCalled(stack, () => stopJob(server, jobId));
      }
    });
    const last = events.at(-1)!;
    t.match(last, { event: 'job_status', data: { status: EXPECTED[c].status, response: { status: EXPECTED[c].status, errors: [{ code: EXPECTED[c].code }] } } }, `${c}: the final job_status`);
    if (EXPECTED[c].status === 'failed') t.ok(events.some((e) => e.event === 'error'), `${c}: an error event`);
    await recordAgrees(t, server, jobId, c);
  }
  arrange(stack.model, 'client_gone');
  const controller = new AbortController();
  const aborted = stack.model.nextAbort();
  let jobId = '';
  const res = await postWorkflow(stack.server, body('client_gone', stack.flowOn(stack.server), { stream: true }), { signal: controller.signal } as never);
  await readSse(res, (event) => {
    if (event.event === 'job_status') jobId ||= event.data.job_id;
    if (event.event === 'token') controller.abort();
  }).catch(() => undefined);
  t.ok((await aborted).aborted, 'client_gone: the model call was cancelled');
  await recordAgrees(t, stack.server, jobId, 'client_gone');
});

t.test('v2 background and webhook jobs: every failure and a stop end the job as its record says', async (t) => {
  const stack = await failureStack(t);
  const submitters: Record<string, (server: TestServer, c: FailureCase) => Promise<string>> = {
    background: async (server, c) => (await (await postWorkflow(server, body(c, stack.flowOn(server), { background: true }))).json()).job_id,
    // A webhook carries no variables: with the key stored for the flow's owner, it has one.
    webhook: async (server, c) => {
      if (withKey(c)) await server.request('/api/v1/variables/', { method: 'POST', json: { name: 'OPENAIKEY', value: 'sk-test', default_fields: [] } });
      const res = await server.request(`/api/v1/webhook/${stack.webhookFlowOn(server)}`, { method: 'POST', body: '{"text":"hi"}' });
      t.equal(res.status, 202);
      return (await res.json()).job_id;
    },
  };
  for (const [name, submit] of Object.entries(submitters)) {
    for (const c of ['component', 'missing_variable', 'timeout', 'stop'] as const) {
      await removeKey(stack.server);
      await removeKey(stack.quick);
      arrange(stack.model, c);
      const server = serverFor(stack, c);
      const reached = stack.model.nextChat();
      const jobId = await submit(server, c);
      if (c === 'stop') {
        await reached;
        const stopped = await (await stopJob(server, jobId)).json();
        t.match(stopped.message, /cancelled successfully/, `${name}, stop: the reply says so`);
      }
      t.comment(`${name}, ${c}`);
      await recordAgrees(t, server, jobId, c);
      const log = await readSse(await getJob(server, jobId, '&stream=true'));
      t.equal(log.at(-1)!.data.status, EXPECTED[c].status, `${name}, ${c}: its log ends with the status`);
    }
  }
});

/** Removes the stored key variable, if any (the webhook cases store it for the flow's owner). */
async function removeKey(server: TestServer): Promise<void> {
  const variables = (await (await server.request('/api/v1/variables/')).json()) as { id: string; name: string }[];
  for (const v of variables.filter((v) => v.name === 'OPENAIKEY')) await server.request(`/api/v1/variables/${v.id}`, { method: 'DELETE' });
}
