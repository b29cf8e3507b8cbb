/** Every route the spec lists that is not served yet answers 501 in the documented shape; served routes are untouched. */
import t from 'tap';
import { UNSERVED_ROWS } from '../src/api/unserved/unserved.routes.js';
import { startTestServer } from './support/server.js';

t.test('spec routes not served yet answer 501 {"detail": "Not implemented yet"}', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  for (const [method, path] of UNSERVED_ROWS) {
    const concrete = path.replace(/:[a-z_]+/g, 'x1');
    const res = await server.request(concrete, { method, key: null });
    t.equal(res.status, 501, `${method} ${concrete}`);
    if (method !== 'HEAD') t.same(await res.json(), { detail: 'Not implemented yet' }, `${method} ${concrete}: body`);
  }
  t.equal((await server.request('/api/v1/nonexistent')).status, 404, 'a path the spec does not list is still a 404');
  t.equal((await server.request('/api/v1/flows/')).status, 200, 'served routes answer as before');
  t.equal((await server.request('/api/v1/monitor/messages')).status, 200);
});
