/**
 * background: true on /api/v1/responses: the Response comes back `in_progress` at once, the run goes on without
 * the caller, and `client.responses.retrieve(id)` (GET /api/v1/responses/{id}) reads it, completed or failed.
 * A restart while it runs leaves it failed, never in_progress forever.
 */
import OpenAI from 'openai';
import t from 'tap';
import { createFlow, secondUser } from './support/flow-helpers.js';
import { echoFlow } from './support/langflow-json.js';
import { startModelServer } from './support/model-server.js';
import { chatModelFlow, openaiModelTemplate } from './support/model-flows.js';
import { openaiClient } from './support/responses.js';
import { startTestServer } from './support/server.js';

async function until(client: OpenAI, id: string, status: string) {
  for (let i = 0; i < 1000; i++) {
    const response = await client.responses.retrieve(id);
    if (response.status === status) return response;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`response ${id} never became ${status}`);
}

t.test('background responses run on after the reply and are read back by id', async (t) => {
  const model = await startModelServer();
  process.env.OPENAI_BASE_URL = model.baseURL;
  const server = await startTestServer();
  t.teardown(async () => {
    await server.close();
    await model.close();
  });
  const client = openaiClient(server);
  const flowId = (await createFlow(server, chatModelFlow('Background model', 'LanguageModelComponent', openaiModelTemplate()))).id;

  model.script({ tokens: [' later', ' reply'], tokenDelayMs: 50 });
  const pending = await client.responses.create({ model: flowId, input: 'in the background', background: true });
  t.equal(pending.status, 'in_progress');
  t.match(pending.id, /^resp_/);
  t.same(pending.output, []);
  const done = await until(client, pending.id, 'completed');
  t.equal(done.output_text, ' later reply');
  t.equal(done.id, pending.id);

  const next = await client.responses.create({ model: flowId, input: 'and then?', previous_response_id: pending.id });
  t.equal(next.previous_response_id, pending.id, 'a background response continues a conversation like any other');

  model.script({ error: { status: 400, message: 'model down' } });
  const failing = await client.responses.create({ model: flowId, input: 'fail later', background: true });
  const failed = await until(client, failing.id, 'failed');
  t.match(failed.error?.message, /model down/);

  const missing = await client.responses.retrieve('resp_unknown').then(
    () => undefined,
    (error: unknown) => error,
  );
  t.type(missing, OpenAI.NotFoundError);
  t.match(missing, { code: 'response_not_found' });
  const other = await secondUser(server, 'background-other');
  const hidden = await openaiClient(server, { key: other.key }).responses.retrieve(pending.id).then(() => undefined, (error: unknown) => error);
  t.type(hidden, OpenAI.NotFoundError, "another user's response is not found");
});

t.test('a restart while a background response runs leaves it failed', async (t) => {
  const model = await startModelServer();
  process.env.OPENAI_BASE_URL = model.baseURL;
  const first = await startTestServer();
  const dataDir = first.dataDir;
  t.teardown(async () => {
    await model.close();
  });
  const flowId = (await createFlow(first, chatModelFlow('Cut off', 'LanguageModelComponent', openaiModelTemplate()))).id;
  model.script({ tokens: Array.from({ length: 200 }, (_, i) => ` t${i}`), tokenDelayMs: 20 });
  const pending = await openaiClient(first).responses.create({ model: flowId, input: 'long', background: true });
  await first.stop();

  const second = await startTestServer({}, dataDir);
  // The second server runs on the first's data dir, which the first's close removes once the second has stopped.
  t.teardown(async () => {
    await second.close();
    await first.close();
  });
  const client = openaiClient(second);
  const failed = await until(client, pending.id, 'failed');
  t.match(failed.error?.message, /stopped while this response was running/);
  const echoId = (await createFlow(second, echoFlow('Still serving'))).id;
  t.equal((await client.responses.create({ model: echoId, input: 'fine' })).output_text, 'fine');
});
