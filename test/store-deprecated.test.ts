/**
 * The deprecated component store endpoints answer as Langflow with its store disabled, each with a Deprecation
 * header, and the OpenAPI document lists them as deprecated.
 */
import t from 'tap';
import { startTestServer } from './support/server.js';

const ID = '0b7e3f4e-5c55-4b43-9a39-2f5d4ad1c0aa';

t.test('the store endpoints answer as a disabled store, with a Deprecation header', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const call = async (method: string, path: string, json?: unknown) => {
    const res = await server.request(`/api/v1/store${path}`, { method, json });
    t.equal(res.headers.get('deprecation'), 'true', `${method} ${path}: Deprecation header`);
    return { status: res.status, body: await res.json() };
  };
  t.same(await call('GET', '/check/'), { status: 200, body: { enabled: false } });
  t.same(await call('GET', '/check/api_key'), { status: 200, body: { has_api_key: false, is_valid: false } });
  t.same(await call('GET', '/components/?page=1&limit=10'), { status: 200, body: { count: 0, authorized: false, results: [] } });
  t.same(await call('GET', '/tags'), { status: 200, body: [] });
  const noKey = { status: 400, body: { detail: 'You must have a store API key set.' } };
  t.same(await call('GET', '/users/likes'), noKey);
  t.same(await call('POST', `/users/likes/${ID}`), noKey);
  t.same(await call('GET', `/components/${ID}`), noKey);
  t.same(await call('POST', '/components/', { name: 'x', data: {} }), noKey);
  t.same(await call('PATCH', `/components/${ID}`, { name: 'x' }), noKey);

  const saved = await server.request('/api/v1/api_key/store', { method: 'POST', json: { api_key: 'store-key-123' } });
  t.equal(saved.status, 200);
  t.same(await call('GET', '/check/api_key'), { status: 200, body: { has_api_key: true, is_valid: false } }, 'a key is never valid without a store');
  t.same(await call('GET', '/users/likes'), { status: 400, body: { detail: 'The component store is disabled on this server.' } });

  const badId = await server.request('/api/v1/store/components/not-a-uuid');
  t.equal(badId.status, 422);
  t.match(await badId.json(), { detail: [{ loc: ['path', 'component_id'] }] });
  const keyless = await server.request('/api/v1/store/users/likes', { key: null });
  t.ok(keyless.status === 401 || keyless.status === 403, 'what reads the user needs the user');
});

t.test('the OpenAPI document lists every store endpoint as deprecated', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const spec = await (await server.request('/openapi.json', { key: null })).json();
  const store = Object.entries(spec.paths as Record<string, Record<string, { deprecated?: boolean }>>).filter(([path]) => path.startsWith('/api/v1/store/'));
  const operations = store.flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ at: `${method} ${path}`, deprecated: op.deprecated })));
  t.equal(operations.length, 9, 'nine operations');
  for (const op of operations) t.equal(op.deprecated, true, `${op.at} is deprecated`);
});
