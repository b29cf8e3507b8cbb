/**
 * Stored messages share their msgpack structures (field names once per database, not in every record): records
 * written before that, which carry their own field names, still read next to new ones, across restarts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LangflowClient } from '@datastax/langflow-client';
import { open } from 'lmdb';
import t from 'tap';
import { createFlow } from './support/flow-helpers.js';
import { echoFlow } from './support/langflow-json.js';
import { startTestServer, type TestServer } from './support/server.js';

/** A session's history through the monitor API, as `sender: text` lines. */
const texts = async (server: TestServer, sessionId: string) => {
  const res = await server.request(`/api/v1/monitor/messages?session_id=${sessionId}`);
  if (res.status !== 200) throw new Error(`monitor messages: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { text: string; sender_name: string }[]).map((m) => `${m.sender_name}: ${m.text}`);
};

t.test('messages stored with their own field names read alongside shared-structure ones', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowsvc-msgstore-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const first = await startTestServer({}, dataDir);
  const flowId = (await createFlow(first, echoFlow('Old messages'))).id as string;
  await first.stop();

  // As an earlier version wrote them: plain msgpack databases, every record self-describing.
  const old = {
    id: 'old-message-1', flow_id: flowId, session_id: 'kept', context_id: null, timestamp: '2025-01-01T00:00:00.000Z',
    sender: 'User', sender_name: 'User', text: 'from before', files: [], error: false, edit: false,
    properties: { text_color: '', background_color: '', edited: false, source: { id: null, display_name: null, source: null }, icon: '', allow_markdown: false, positive_feedback: null, state: 'complete', targets: [] },
    category: 'message', content_blocks: [], seq: 1,
  };
  const key = [flowId, 'kept', 1];
  const raw = open({ path: join(dataDir, 'db'), maxDbs: 64, encoding: 'msgpack' });
  await raw.openDB({ name: 'messages', encoding: 'msgpack' }).put(key, old);
  await raw.openDB({ name: 'message_ids', encoding: 'msgpack' }).put(old.id, key);
  await raw.close();

  const second = await startTestServer({}, dataDir);
  const client = new LangflowClient({ baseUrl: second.url, apiKey: second.apiKey });
  await client.flow(flowId).run('after', { session_id: 'kept' });
  const expected = ['User: from before', 'User: after', 'AI: after'];
  t.same(await texts(second, 'kept'), expected, 'old and new records in one history');
  await second.stop();

  const bytes = open({ path: join(dataDir, 'db'), maxDbs: 64, encoding: 'msgpack' });
  const messages = bytes.openDB({ name: 'messages', encoding: 'binary' });
  const sizes = [...messages.getRange({})].map(({ value }) => (value as Buffer).length);
  await bytes.close();
  t.equal(sizes.length, 3);
  const [rewritten, ...fresh] = sizes;
  // The field names of a message and its properties alone take over 200 bytes.
  t.ok(fresh.every((size) => size + 150 < rewritten), `new records leave their field names out (${fresh} bytes against ${rewritten})`);

  const third = await startTestServer({}, dataDir);
  t.teardown(() => third.close());
  t.same(await texts(third, 'kept'), expected, 'and all of them after a restart');
  const edit = await third.request(`/api/v1/monitor/messages/${old.id}`, { method: 'PUT', json: { text: 'edited' } });
  t.equal(edit.status, 200, 'the old record is found by its id');
  t.same(await texts(third, 'kept'), ['User: edited', ...expected.slice(1)], 'and rewritten in place');
});
