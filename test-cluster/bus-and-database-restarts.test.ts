/**
 * The cluster's servers restarting under a running job. NATS stopped and started again mid-stream: the watcher on
 * the instance that does not run the job goes on after the reconnect with no duplicate and no gap (the events
 * appended while NATS was down are counted, and sent once it is back), a watcher reattaching with `Last-Event-ID` gets the rest, and
 * the job ends. PostgreSQL's connections all cut mid-job (what its restart does to clients): the job still ends
 * and its end is recorded, and the next job runs. PostgreSQL gone altogether: requests answer 503, the process lives.
 */
import t from 'tap';
import { startModelServer } from '../test/support/model-server.js';
import { chatModelFlow, openaiModelTemplate } from '../test/support/model-flows.js';
import { readSse, type SseEvent } from '../test/support/workflows.js';
import { startCluster } from './support/cluster.js';
import { ownerOf, submitBackground, TERMINAL, untilTerminal } from './support/background-jobs.js';
import { expectJson } from './support/instances.js';
import { ownNatsServer } from './support/nats.js';
import { admin } from './support/postgres.js';

t.test('NATS restarted mid-stream: the watcher goes on, Last-Event-ID reattaches, the job ends', async (t) => {
  const nats = await ownNatsServer(t);
  const model = await startModelServer();
  t.teardown(() => model.close());
  const cluster = await startCluster(t, 2, { OPENAI_BASE_URL: model.baseURL, FLOWSVC_NATS_URL: nats.url });
  const flow = await expectJson(await cluster.instances[0].call('/api/v1/flows/', { method: 'POST', json: chatModelFlow('Slow model', 'LanguageModelComponent', openaiModelTemplate()) }), 201);
  const tokens = 1500;
  model.script({ tokens: Array.from({ length: tokens }, (_, i) => ` t${i}`), tokenDelayMs: 8 });
  const jobId = await submitBackground(cluster.instances[0], flow.id, 'through a restart');
  await model.nextChat();
  const owner = await ownerOf(cluster.databaseUrl, jobId, cluster.instances);
  const watcherSide = cluster.instances.find((instance) => instance !== owner)!;

  let reached!: () => void;
  const fiftyEvents = new Promise<void>((resolve) => (reached = resolve));
  const watched = readSse(await watcherSide.call(`/api/v2/workflows?job_id=${jobId}&stream=true`), (event) => event.id === 50 && reached());
  await fiftyEvents;
  await nats.stop();
  await nats.start();
  const events = await watched;
  const [final] = (await untilTerminal(watcherSide, [jobId])).values();
  t.ok(TERMINAL.has(final.status), `the job ended (${final.status})`);

  const ids = events.map((event) => event.id);
  t.equal(new Set(ids).size, ids.length, 'no event twice');
  t.same(ids, [...ids].sort((x, y) => x - y), 'in order');
  const lost = ids.at(-1)! - ids.length;
  t.comment(`events lost across the NATS restart: ${lost} of ${ids.at(-1)}`);
  t.same(ids, ids.map((_, i) => i + 1), 'none lost: what was appended while NATS was down was sent again after it came back');
  t.equal(events.at(-1)!.event, 'job_status', 'the watcher got the final status');

  // A client whose stream broke reattaches with the last id it saw: it gets what followed, from the stored log.
  const cut = events[Math.floor(events.length / 2)].id;
  const rest: SseEvent[] = await readSse(await watcherSide.call(`/api/v2/workflows?job_id=${jobId}&stream=true`, { headers: { 'last-event-id': String(cut) } }));
  t.ok(rest.length > 0 && rest[0].id === cut + 1, 'Last-Event-ID resumes right after the last event seen');
  t.ok(rest.every((event, i) => i === 0 || event.id === rest[i - 1].id + 1), 'the stored log has no gap');
});

t.test("PostgreSQL's connections cut mid-job: the job ends, its end is recorded, and the next job runs", async (t) => {
  const model = await startModelServer();
  t.teardown(() => model.close());
  const cluster = await startCluster(t, 2, { OPENAI_BASE_URL: model.baseURL, FLOWSVC_JOB_LEASE_SECONDS: '2' });
  const [a, b] = cluster.instances;
  const flow = await expectJson(await a.call('/api/v1/flows/', { method: 'POST', json: chatModelFlow('Slow model', 'LanguageModelComponent', openaiModelTemplate()) }), 201);
  model.script({ tokens: Array.from({ length: 150 }, (_, i) => ` t${i}`), tokenDelayMs: 10 }, { tokens: ['next'] });
  const jobId = await submitBackground(a, flow.id, 'through a database restart');
  await model.nextChat();
  const dbName = new URL(cluster.databaseUrl).pathname.slice(1);
  const cut = await admin('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [dbName]);
  t.ok(cut.length > 0, `the server cut ${cut.length} connections`);
  const [final] = (await untilTerminal(b, [jobId])).values();
  t.ok(TERMINAL.has(final.status), `the job ended (${final.status}), not stuck`);
  const [next] = (await untilTerminal(b, [await submitBackground(b, flow.id, 'after the restart')])).values();
  t.equal(next.status, 'completed', 'the next job ran');
});

t.test('PostgreSQL gone: a request answers 503 with a detail, and the instance stays up', async (t) => {
  const cluster = await startCluster(t, 1);
  const [a] = cluster.instances;
  await expectJson(await a.call('/api/v1/flows/'), 200);
  await admin(`DROP DATABASE ${new URL(cluster.databaseUrl).pathname.slice(1)} WITH (FORCE)`);
  const res = await a.call('/api/v1/flows/');
  t.equal(res.status, 503, 'unavailable, not an internal error');
  t.match(await res.json(), { detail: String }, 'in the documented shape');
  t.equal(a.child.exitCode, null, 'the process did not end');
  t.equal((await a.call('/health')).status, 200, 'alive');
  const check = await a.call('/health_check');
  t.same([check.status, (await check.json()).detail?.db], [500, 'error check the server logs'], "and its health check says the database is not (Langflow's answer)");
});
