/**
 * Ids of v2 jobs and of messages: version 7 UUIDs (time first, so the store appends records), valid wherever a
 * UUID is asked for.
 */
import t from 'tap';
import { z } from 'zod';
import { LangflowClient } from '@datastax/langflow-client';
import { timeOrderedId, uuidV7 } from '../src/ids/time-ordered-id.js';
import { createFlow } from './support/flow-helpers.js';
import { echoFlow } from './support/langflow-json.js';
import { startTestServer } from './support/server.js';
import { postWorkflow, stopJob } from './support/workflows.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

t.test('uuidV7: the time in its first 48 bits, the counter in the next 12, random after, a valid UUID', async (t) => {
  const at = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
  const id = uuidV7(at, 0xabc);
  t.match(id, V7);
  t.equal(parseInt(id.slice(0, 8) + id.slice(9, 13), 16), at);
  t.equal(id.slice(15, 18), 'abc');
  t.ok(z.uuid().safeParse(id).success, 'zod takes it as a UUID');
  t.not(uuidV7(at, 0xabc), id, 'the random bits differ');
  const ids = [at, at + 1, at + 1000, at + 86_400_000].map((ms) => uuidV7(ms, 0xfff));
  t.same([...ids].sort(), ids, 'later times sort after earlier ones, whatever the counter');
  t.match(uuidV7(0, 0), /^00000000-0000-7000-/, 'small values are zero-padded');
});

t.test('timeOrderedId: ids made one after the other sort in that order, within a millisecond too', async (t) => {
  const ids = Array.from({ length: 20_000 }, () => timeOrderedId());
  t.ok(ids.every((id) => V7.test(id)), 'all version 7');
  t.equal(new Set(ids).size, ids.length, 'all distinct');
  t.ok(ids.every((id, i) => i === 0 || ids[i - 1] < id), 'strictly increasing, though thousands share a millisecond');
  const first = parseInt(ids[0].slice(0, 8) + ids[0].slice(9, 13), 16);
  t.ok(Math.abs(first - Date.now()) < 60_000, 'the time is now');
});

t.test('jobs get such ids; stop takes them', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const echo = await createFlow(server, echoFlow('Job ids'));
  const reply = await (await postWorkflow(server, { flow_id: echo.id, inputs: { 'ChatInput-in001.input_value': 'id' } })).json();
  t.match(reply.job_id, V7);
  const stopped = await stopJob(server, reply.job_id);
  t.equal(stopped.status, 200);
  t.match(await stopped.json(), { job_id: reply.job_id, message: /already finished \(completed\)/ });
});

t.test('stored messages get such ids, and the monitor API finds them by id', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const echo = await createFlow(server, echoFlow('Message ids'));
  const client = new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey });
  await client.flow(echo.id).run('first', { session_id: 'ids' });
  await client.flow(echo.id).run('second', { session_id: 'ids' });
  const messages = (await (await server.request(`/api/v1/monitor/messages?flow_id=${echo.id}&session_id=ids`)).json()) as { id: string; text: string }[];
  t.equal(messages.length, 4, 'two runs, two messages each');
  for (const m of messages) t.match(m.id, V7);
  const ids = messages.map((m) => m.id);
  const times = ids.map((id) => id.slice(0, 13));
  t.same([...times].sort(), times, 'in stored order, the time parts of the ids never go back');
  const removed = await server.request('/api/v1/monitor/messages', { method: 'DELETE', json: [ids[0]] });
  t.equal(removed.status, 204);
  const left = (await (await server.request(`/api/v1/monitor/messages?flow_id=${echo.id}&session_id=ids`)).json()) as { id: string }[];
  t.same(left.map((m) => m.id), ids.slice(1), 'a delete by id finds the message');
});
