import t from 'tap';
import { startTestServer } from './support/server.js';

t.test('health endpoints', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());

  const health = await server.request('/health', { key: null });
  t.equal(health.status, 200);
  t.same(await health.json(), { status: 'ok' });

  for (const path of ['/health_check', '/api/v1/health_check']) {
    const res = await server.request(path, { key: null });
    t.equal(res.status, 200, path);
    t.same(await res.json(), { status: 'ok', chat: 'ok', db: 'ok' }, path);
  }
});

t.test('health_check answers 500 when the store is unavailable', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  await server.services.store.close();
  const res = await server.request('/api/v1/health_check', { key: null });
  t.equal(res.status, 500);
  const body = await res.json();
  t.equal(body.detail.status, 'nok');
  t.match(body.detail.db, /error/);
  const alive = await server.request('/health', { key: null });
  t.equal(alive.status, 200, '/health does not check the store');
});

t.test('health_check is right under concurrency: 500 checks, 50 at a time, all healthy', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const statuses: number[] = [];
  const bodies = new Set<string>();
  let next = 0;
  const worker = async () => {
    while (next < 500) {
      next++;
      const res = await server.request('/api/v1/health_check', { key: null });
      statuses.push(res.status);
      bodies.add(await res.text());
    }
  };
  await Promise.all(Array.from({ length: 50 }, worker));
  t.equal(statuses.length, 500);
  t.same([...new Set(statuses)], [200], 'every check answered 200');
  t.same([...bodies].map((b) => JSON.parse(b)), [{ status: 'ok', chat: 'ok', db: 'ok' }], "in Langflow's shape");
});
