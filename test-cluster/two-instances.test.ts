/**
 * Service processes on one PostgreSQL, reached over real HTTP with plain fetch: what is written through one instance
 * is read, and used, through another. Three start at once on an empty database (one migration, one secret key, one
 * superuser between them); an acknowledged write outlives a SIGKILL of the instance that took it.
 */
import t from 'tap';
import { MIGRATIONS } from '../src/store/pg/migrations.js';
import { echoFlow } from '../test/support/langflow-json.js';
import { expectJson, startInstance, startInstances, type Instance } from './support/instances.js';
import { admin, freshDatabase } from './support/postgres.js';

const runText = (reply: any): string => reply.outputs[0].outputs[0].results.message.text;

async function run(on: Instance, flowId: string, input: string, sessionId: string, key?: string): Promise<string> {
  return runText(await expectJson(await on.call(`/api/v1/run/${flowId}`, { method: 'POST', json: { input_value: input, session_id: sessionId }, key }), 200));
}

t.test('three instances on one database', async (t) => {
  const url = await freshDatabase(t);
  const [a, b, c] = await startInstances(t, url, 3);
  // Each start migrates, creates the superuser and may generate the secret key: the three raced for all of it.
  const migrations = await admin<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version', [], url);
  t.same(migrations.map((m) => m.version), MIGRATIONS.map((m) => m.version), 'started at once, all three came up on one migrated schema');
  const superusers = await admin<{ id: string }>(`SELECT id FROM users WHERE username = 'langflow'`, [], url);
  t.equal(superusers.length, 1, 'with one superuser between them');

  t.test('a flow created on A runs on B; its messages are read on C', async (t) => {
    const flow = await expectJson(await a.call('/api/v1/flows/', { method: 'POST', json: echoFlow('Across') }), 201);
    t.equal(await run(b, flow.id, 'hello from B', 'shared-session'), 'hello from B', 'B ran the flow A stored');
    const messages = await expectJson(await c.call(`/api/v1/monitor/messages?flow_id=${flow.id}`), 200);
    t.same(messages.map((m: any) => [m.sender, m.text]), [['User', 'hello from B'], ['Machine', 'hello from B']], "C reads the messages B's run stored");
    const renamed = await expectJson(await c.call(`/api/v1/flows/${flow.id}`, { method: 'PATCH', json: { name: 'Renamed on C' } }), 200);
    t.equal(renamed.name, 'Renamed on C');
    t.equal((await expectJson(await b.call(`/api/v1/flows/${flow.id}`), 200)).name, 'Renamed on C', "B reads C's update at once");
  });

  t.test('a flow changed on A runs changed on B, whose graph of it was compiled before', async (t) => {
    const before = echoFlow('Changing');
    const flow = await expectJson(await a.call('/api/v1/flows/', { method: 'POST', json: before }), 201);
    const senderOf = async () =>
      (await expectJson(await b.call(`/api/v1/run/${flow.id}`, { method: 'POST', json: { input_value: 'hi', session_id: 'changing' } }), 200)).outputs[0].outputs[0].results
        .message.sender_name;
    t.equal(await senderOf(), 'AI', 'B ran it as first saved');
    const output = before.data.nodes.find((n: any) => n.data.type === 'ChatOutput') as any;
    output.data.node.template.sender_name = { value: 'Changed on A' };
    await expectJson(await a.call(`/api/v1/flows/${flow.id}`, { method: 'PATCH', json: { data: before.data } }), 200);
    t.equal(await senderOf(), 'Changed on A', 'B runs the data A saved, not the graph it compiled before');
  });

  t.test('a key created on B works on A; revoked on C, A refuses it', async (t) => {
    const created = await expectJson(await b.call('/api/v1/api_key/', { method: 'POST', json: { name: 'from B' } }), 200);
    const whoami = await expectJson(await a.call('/api/v1/users/whoami', { key: created.api_key }), 200);
    t.equal(whoami.username, 'langflow', 'A knows whose key it is');
    await expectJson(await c.call(`/api/v1/api_key/${created.id}`, { method: 'DELETE' }), 200);
    t.equal((await a.call('/api/v1/users/whoami', { key: created.api_key })).status, 403, 'A refuses the revoked key on the next request');
  });

  t.test('a user and a variable written on A are read on B; a token signed on A is accepted by C', async (t) => {
    const user = await expectJson(await a.call('/api/v1/users/', { method: 'POST', json: { username: 'ada', password: 'ada-password' } }), 201);
    const listed = await expectJson(await b.call('/api/v1/users/?limit=100'), 200);
    t.ok(listed.users.some((u: any) => u.id === user.id), 'B lists the user A created');
    const token = await expectJson(
      await fetch(`${a.url}/api/v1/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'username=ada&password=ada-password' }),
      200,
    );
    const me = await expectJson(await c.call('/api/v1/users/whoami', { key: null, headers: { authorization: `Bearer ${token.access_token}` } }), 200);
    t.equal(me.id, user.id, 'C accepts the token A signed: one secret key for all');
    const variable = await expectJson(await a.call('/api/v1/variables/', { method: 'POST', json: { name: 'SHARED', value: 'v', type: 'Generic', default_fields: [] } }), 201);
    const variables = await expectJson(await b.call('/api/v1/variables/'), 200);
    t.ok(variables.some((v: any) => v.id === variable.id && v.name === 'SHARED'), 'B lists the variable A created');
  });

  t.test('a write acknowledged by an instance outlives its SIGKILL', async (t) => {
    const flow = await expectJson(await a.call('/api/v1/flows/', { method: 'POST', json: echoFlow('Before the kill') }), 201);
    await run(a, flow.id, 'said before the kill', 'kill-session');
    await a.kill();
    t.equal((await expectJson(await b.call(`/api/v1/flows/${flow.id}`), 200)).name, 'Before the kill', 'the flow is there for B');
    const messages = await expectJson(await b.call(`/api/v1/monitor/messages?flow_id=${flow.id}`), 200);
    t.equal(messages.length, 2, 'and the messages of its run');
    const restarted = await startInstance(t, url);
    t.equal((await expectJson(await restarted.call(`/api/v1/flows/${flow.id}`), 200)).name, 'Before the kill', 'and for an instance started afterwards');
  });
});
