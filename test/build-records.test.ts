/**
 * Vertex build records (GET/DELETE /api/v1/monitor/builds): written for builds with log_builds (the default) off
 * the reply's path, Langflow's fields, the newest two per vertex, the flow owner's only, and still there after
 * the service restarts on the same data dir.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { buildEvents, startBuild } from './support/builds.js';
import { createFlow, secondUser } from './support/flow-helpers.js';
import { echoFlow } from './support/langflow-json.js';
import { startTestServer, type TestServer } from './support/server.js';
import { within } from './support/within.js';

const dataDir = mkdtempSync(join(tmpdir(), 'flowsvc-build-records-'));
let server: TestServer;
let flowId: string;

t.before(async () => {
  server = await startTestServer({}, dataDir);
  flowId = (await createFlow(server, echoFlow('Recorded echo'))).id;
});
t.teardown(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const builds = async (s: TestServer, id: string, key?: string) => {
  const res = await s.request(`/api/v1/monitor/builds?flow_id=${id}`, { key });
  if (res.status !== 200) throw new Error(`builds: ${res.status} ${await res.text()}`);
  return (await res.json()).vertex_builds as Record<string, any[]>;
};

/** Re-reads the records until `until` holds: they are written after the build's reply, in the background. */
async function recorded(id: string, until: (map: Record<string, any[]>) => boolean): Promise<Record<string, any[]>> {
  return within(
    (async () => {
      for (;;) {
        const map = await builds(server, id);
        if (until(map)) return map;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })(),
    'the vertex builds being recorded',
  );
}

const texts = (list: any[]) => list.map((b) => b.data.results.message.text);

t.test("a build's vertex builds are recorded with Langflow's fields", async (t) => {
  await buildEvents(server, await startBuild(server, flowId, { inputs: { input_value: 'first' } }));
  const map = await recorded(flowId, (m) => m['ChatOutput-out01']?.length === 1);
  t.same(Object.keys(map).sort(), ['ChatInput-in001', 'ChatOutput-out01']);
  const [output] = map['ChatOutput-out01'];
  t.match(output, { id: 'ChatOutput-out01', flow_id: flowId, valid: true, params: 'Built successfully ✨', artifacts: { message: { raw: 'first', type: 'text' } } });
  t.match(output.build_id, /^[0-9a-f-]{36}$/);
  t.ok(!Number.isNaN(Date.parse(output.timestamp)));
  t.match(output.data, { results: { message: { text: 'first' } }, outputs: { message: { message: 'first', type: 'text' } } });
});

t.test('log_builds=false records nothing; each vertex keeps its newest two builds', async (t) => {
  await buildEvents(server, await startBuild(server, flowId, { inputs: { input_value: 'unlogged' } }, '?log_builds=false'));
  await buildEvents(server, await startBuild(server, flowId, { inputs: { input_value: 'second' }, log_builds: true }));
  const two = await recorded(flowId, (m) => texts(m['ChatOutput-out01'] ?? []).includes('second'));
  t.same(texts(two['ChatOutput-out01']), ['first', 'second'], 'the unlogged build left no record (written in order)');
  await buildEvents(server, await startBuild(server, flowId, { inputs: { input_value: 'third' } }));
  const kept = await recorded(flowId, (m) => texts(m['ChatOutput-out01']).includes('third'));
  t.same(texts(kept['ChatOutput-out01']), ['second', 'third'], 'the oldest went');
  t.equal(kept['ChatInput-in001'].length, 2);
});

t.test("only the flow's owner reads or deletes its builds", async (t) => {
  const other = await secondUser(server, 'records-other');
  t.same(await builds(server, flowId, other.key), {}, "another user's flow has no builds for them");
  const deleted = await server.request(`/api/v1/monitor/builds?flow_id=${flowId}`, { method: 'DELETE', key: other.key });
  t.equal(deleted.status, 204);
  t.equal((await builds(server, flowId))['ChatOutput-out01'].length, 2, "the owner's builds are untouched");
});

t.test('the records survive a restart; DELETE clears them', async (t) => {
  await server.stop();
  server = await startTestServer({}, dataDir);
  const map = await builds(server, flowId);
  t.same(texts(map['ChatOutput-out01']), ['second', 'third'], 'read back after the restart');
  const deleted = await server.request(`/api/v1/monitor/builds?flow_id=${flowId}`, { method: 'DELETE' });
  t.equal(deleted.status, 204);
  t.same(await builds(server, flowId), {});
});

t.test("a deleted flow's builds go with it", async (t) => {
  const id = (await createFlow(server, echoFlow('Doomed echo'))).id;
  await buildEvents(server, await startBuild(server, id, { inputs: { input_value: 'doomed' } }));
  await recorded(id, (m) => m['ChatOutput-out01']?.length === 1);
  t.equal((await server.request(`/api/v1/flows/${id}`, { method: 'DELETE' })).status, 200);
  // The route answers {} for any flow the caller does not own, so the store itself is asked.
  t.same(await server.services.store.vertexBuilds.listByFlow(id), []);
});
