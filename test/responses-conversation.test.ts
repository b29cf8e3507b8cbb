/**
 * Conversations on /api/v1/responses: `previous_response_id` reuses the earlier response's session, so the
 * Memory Chatbot starter sees the earlier turns; any caller-chosen string works as a session id; the mapping
 * from response to session is stored and survives a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import t from 'tap';
import { createFlow, secondUser } from './support/flow-helpers.js';
import { echoFlow } from './support/langflow-json.js';
import type { ModelServer } from './support/model-server.js';
import { memoryChatbotFlow, startModelStack } from './support/model-flows.js';
import { openaiClient } from './support/responses.js';
import { startTestServer, type TestServer } from './support/server.js';

let model: ModelServer;
let server: TestServer;
let close: () => Promise<void>;
let client: OpenAI;
let memoryFlowId: string;

t.before(async () => {
  ({ model, server, close } = await startModelStack({ storeKey: true }));
  client = openaiClient(server);
  memoryFlowId = (await createFlow(server, memoryChatbotFlow())).id;
});
t.teardown(() => close());

/** The system message of the model call made by the next request (the Memory Chatbot puts the history there). */
async function systemMessageOf(call: () => Promise<OpenAI.Responses.Response>): Promise<{ response: OpenAI.Responses.Response; system: string }> {
  const before = model.chats.length;
  const response = await call();
  const system = model.chats[before].body.messages.find((m: { role: string }) => m.role === 'system');
  return { response, system: system?.content ?? '' };
}

t.test('previous_response_id continues the conversation: Memory sees the earlier turns, through a chain', async (t) => {
  model.script({ text: 'Nice to meet you, Ada.' });
  const first = await client.responses.create({ model: memoryFlowId, input: 'My name is Ada' });
  t.equal(first.output_text, 'Nice to meet you, Ada.');

  const second = await systemMessageOf(() => client.responses.create({ model: memoryFlowId, input: 'what is my name', previous_response_id: first.id }));
  t.match(second.system, /User: My name is Ada\nAI: Nice to meet you, Ada\./, 'the first exchange is in the prompt');
  t.equal(second.response.previous_response_id, first.id, 'echoed');
  t.not(second.response.id, first.id, 'a new id per turn');

  const third = await systemMessageOf(() => client.responses.create({ model: memoryFlowId, input: 'and again?', previous_response_id: second.response.id }));
  t.match(third.system, /User: My name is Ada\n.*\nUser: what is my name\nAI: You said: what is my name/s, 'both earlier turns: the session follows the chain');

  const fresh = await systemMessageOf(() => client.responses.create({ model: memoryFlowId, input: 'who am I?' }));
  t.notMatch(fresh.system, /Ada/, 'a response without previous_response_id starts a new conversation');
});

t.test('a caller-chosen string works as a session id, and is echoed', async (t) => {
  const first = await client.responses.create({ model: memoryFlowId, input: 'I like tea', previous_response_id: 'my-own-session' });
  t.equal(first.previous_response_id, 'my-own-session');
  const second = await systemMessageOf(() => client.responses.create({ model: memoryFlowId, input: 'what do I like?', previous_response_id: 'my-own-session' }));
  t.match(second.system, /User: I like tea/);
  const stored = await server.services.store.messages.session(memoryFlowId, 'my-own-session', {});
  t.same(stored.map((m) => m.text).slice(0, 3), ['I like tea', 'You said: I like tea', 'what do I like?'], 'the messages live in that session');
});

t.test('another user\'s response id is only a string to them: it names a session of their own', async (t) => {
  const first = await client.responses.create({ model: memoryFlowId, input: 'my secret is 42' });
  const second = await client.responses.create({ model: memoryFlowId, input: 'remember it', previous_response_id: first.id });
  t.equal((await server.services.store.responses.get(second.id))?.session_id, first.id, 'the second turn ran in the first turn\'s session');

  const other = await secondUser(server, 'conversation-other');
  const theirFlow = await createFlow(server, echoFlow('Their echo'), other.key);
  const theirs = await openaiClient(server, { key: other.key }).responses.create({ model: theirFlow.id, input: 'hello', previous_response_id: second.id });
  t.equal(theirs.previous_response_id, second.id);
  t.same((await server.services.store.messages.session(theirFlow.id, second.id, {})).map((m) => m.text), ['hello', 'hello'], 'stored under the string they gave');
  t.same(await server.services.store.messages.session(theirFlow.id, first.id, {}), [], 'not under the owner\'s session');
});

t.test('the conversation survives a restart: the response -> session record is durable', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowsvc-responses-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  let running = await startTestServer({ FALLBACK_TO_ENV_VAR: 'false' }, dataDir);
  t.teardown(() => running.close());
  const stored = await running.request('/api/v1/variables/', { method: 'POST', json: { name: 'OPENAI_API_KEY', value: 'sk-stored', default_fields: [] } });
  t.equal(stored.status, 201);
  const flowId = (await createFlow(running, memoryChatbotFlow())).id;
  model.script({ text: 'Hello Grace.' });
  const first = await openaiClient(running).responses.create({ model: flowId, input: 'I am Grace' });
  const second = await openaiClient(running).responses.create({ model: flowId, input: 'noted?', previous_response_id: first.id });
  await running.close();

  running = await startTestServer({ FALLBACK_TO_ENV_VAR: 'false' }, dataDir);
  const before = model.chats.length;
  // The second response's session is the first's: only its stored record knows that.
  const third = await openaiClient(running).responses.create({ model: flowId, input: 'who am I?', previous_response_id: second.id });
  t.equal(third.previous_response_id, second.id);
  const system = model.chats[before].body.messages.find((m: { role: string }) => m.role === 'system').content;
  t.match(system, /User: I am Grace\nAI: Hello Grace\./);
});
