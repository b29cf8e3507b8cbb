/**
 * The responses entry points (a reply, a stream, a background response), driven through the same failure cases
 * with the official `openai` client: each answers in OpenAI's shape (a typed APIError with the failure table's
 * status, a `response.failed` event, a failed or cancelled Response), and the stored Response agrees.
 */
import OpenAI from 'openai';
import t from 'tap';
import { arrange, failureStack, SAYS, serverFor, withKey, type FailureCase } from './support/failure-cases.js';
import { openaiClient } from './support/responses.js';
import type { TestServer } from './support/server.js';

/** The client a case uses: without the key variable's header for a missing variable. */
const clientFor = (server: TestServer, c: FailureCase) =>
  withKey(c) ? openaiClient(server) : new OpenAI({ baseURL: `${server.url}/api/v1`, apiKey: 'placeholder-key', maxRetries: 0, defaultHeaders: { 'x-api-key': server.apiKey } });

/** A Response as the service sent it: the client adds `output_text` to what create and retrieve return, not cancel. */
const bare = ({ output_text: _, ...response }: OpenAI.Responses.Response) => response;

const failing = ['component', 'missing_variable', 'timeout'] as const;
const STATUS = { component: 500, missing_variable: 400, timeout: 408 } as const;

async function settled(client: OpenAI, id: string) {
  // A client polls a background response by id, as OpenAI's documentation shows.
  for (let i = 0; i < 2000; i++) {
    // A streamed Response is recorded when it ends: one cut off by its client may not be stored yet.
    const response = await client.responses.retrieve(id).catch((error: unknown) => {
      if (error instanceof OpenAI.NotFoundError) return undefined;
      throw error;
    });
    if (response && response.status !== 'in_progress' && response.status !== 'queued') return response;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`response ${id} never ended`);
}

t.test('a reply: each failure is an APIError with its status and processing_error; a client that leaves cancels the run', async (t) => {
  const stack = await failureStack(t);
  for (const c of failing) {
    arrange(stack.model, c);
    const server = serverFor(stack, c);
    const error = await clientFor(server, c).responses.create({ model: stack.flowOn(server), input: 'hi' }).then(() => undefined, (e: unknown) => e);
    t.type(error, OpenAI.APIError, `${c}: the client raises`);
    t.match(error, { status: STATUS[c], type: 'processing_error', message: SAYS[c] }, `${c}: status, type and why`);
  }
  arrange(stack.model, 'client_gone');
  const controller = new AbortController();
  const aborted = stack.model.nextAbort();
  const request = openaiClient(stack.server).responses.create({ model: stack.flowOn(stack.server), input: 'hi' }, { signal: controller.signal }).catch(() => undefined);
  await stack.model.nextChat();
  controller.abort();
  t.ok((await aborted).aborted, 'client_gone: the model call was cancelled with the run');
  await request;
});

t.test('a stream: each failure ends with response.failed saying why, a client leaving cancels; the stored Response agrees', async (t) => {
  const stack = await failureStack(t);
  for (const c of failing) {
    arrange(stack.model, c);
    const server = serverFor(stack, c);
    const client = clientFor(server, c);
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of await client.responses.create({ model: stack.flowOn(server), input: 'hi', stream: true })) events.push(event);
    const [created, failed] = [events[0], events.at(-1)];
    if (created?.type !== 'response.created' || failed?.type !== 'response.failed') {
      t.fail(`${c}: from response.created to response.failed, got ${events.map((e) => e.type).join(', ')}`);
      continue;
    }
    t.notOk(events.some((e) => e.type === 'response.completed'), `${c}: never completed`);
    t.match(failed.response.error, { message: SAYS[c] }, `${c}: response.failed says why`);
    const id = created.response.id;
    const stored = await client.responses.retrieve(id);
    t.match(stored, { status: 'failed', error: { message: SAYS[c] } }, `${c}: the stored Response agrees`);
    t.same(bare(await client.responses.cancel(id)), bare(stored), `${c}: a cancel after the end answers the Response as it is`);
  }
  arrange(stack.model, 'client_gone');
  const client = openaiClient(stack.server);
  const aborted = stack.model.nextAbort();
  let id = '';
  for await (const event of await client.responses.create({ model: stack.flowOn(stack.server), input: 'hi', stream: true })) {
    if (event.type === 'response.created') id = event.response.id;
    if (event.type === 'response.output_text.delta') break; // the client stops reading: it aborts the request
  }
  t.ok((await aborted).aborted, 'client_gone: the model call was cancelled');
  t.equal((await settled(client, id)).status, 'cancelled', 'client_gone: stored as cancelled');
});

t.test('background: each failure ends the Response failed, a cancel ends it cancelled; the stored Response agrees', async (t) => {
  const stack = await failureStack(t);
  for (const c of failing) {
    arrange(stack.model, c);
    const server = serverFor(stack, c);
    const client = clientFor(server, c);
    const pending = await client.responses.create({ model: stack.flowOn(server), input: 'hi', background: true });
    t.equal(pending.status, 'in_progress', `${c}: accepted`);
    t.match(await settled(client, pending.id), { status: 'failed', error: { message: SAYS[c] } }, `${c}: failed, saying why`);
  }
  arrange(stack.model, 'stop');
  const client = openaiClient(stack.server);
  const reached = stack.model.nextChat();
  const aborted = stack.model.nextAbort();
  const pending = await client.responses.create({ model: stack.flowOn(stack.server), input: 'hi', background: true });
  await reached;
  const cancelled = await client.responses.cancel(pending.id);
  t.match(cancelled, { id: pending.id, status: 'cancelled', error: null }, 'stop: the cancel answers the cancelled Response');
  t.ok((await aborted).aborted, 'stop: the model call was cancelled');
  t.same(bare(await client.responses.retrieve(pending.id)), bare(cancelled), 'stop: the stored Response agrees');
  t.same(bare(await client.responses.cancel(pending.id)), bare(cancelled), 'a second cancel answers the Response as it is');
});
