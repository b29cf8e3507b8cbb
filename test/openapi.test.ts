/** /openapi.json and /docs over HTTP, checked against the live route table rather than a hard-coded list. */
import { readFileSync } from 'node:fs';
import t from 'tap';
import { buildRoutes } from '../src/api/routes.js';
import type { Route } from '../src/edge/route.js';
import { startTestServer } from './support/server.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** Every `$ref` anywhere under `value`. */
function refsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsIn(item, out);
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') out.push(child);
      else refsIn(child, out);
    }
  }
  return out;
}

t.test('OpenAPI document', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const routes: Route[] = buildRoutes(server.services);
  const visible = routes.filter((route) => !route.hidden);

  const res = await server.request('/openapi.json', { key: null });
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^application\/json/);
  const doc = await res.json();

  t.test('is OpenAPI 3.1 with our name and version', async (t) => {
    t.match(doc.openapi, /^3\.1\.\d+$/);
    t.equal(doc.info.title, 'flowsvc');
    t.equal(doc.info.version, pkg.version);
  });

  t.test('lists every visible route with its method, and nothing else', async (t) => {
    t.ok(visible.length > 5, 'the table is not empty');
    for (const route of visible) {
      const operation = doc.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];
      t.ok(operation, `${route.method} ${route.path}`);
      if (!operation) continue;
      t.equal(operation.summary, route.summary, `${route.method} ${route.path} summary`);
      t.same(operation.tags, route.tags, `${route.method} ${route.path} tags`);
    }
    const listed = Object.values(doc.paths as Record<string, object>).reduce((n, item) => n + Object.keys(item).length, 0);
    t.equal(listed, visible.length, 'one operation per visible route');
    for (const route of routes.filter((r) => r.hidden)) {
      t.notOk(doc.paths[openApiPath(route.path)]?.[route.method.toLowerCase()], `hidden: ${route.method} ${route.path}`);
    }
    t.notOk(Object.keys(doc.paths).some((path) => path.includes(':')), 'no :param left in paths');
  });

  t.test('routes with a JSON body schema have a requestBody; validated input documents 422', async (t) => {
    const withBody = visible.filter((route) => route.body && (route.bodyKind ?? 'json') === 'json');
    t.ok(withBody.length > 0, 'some route has a body schema');
    for (const route of withBody) {
      const operation = doc.paths[openApiPath(route.path)][route.method.toLowerCase()];
      t.ok(operation.requestBody?.content?.['application/json']?.schema, `${route.method} ${route.path} requestBody`);
      // A route with its own error body (the OpenAI-shaped responses endpoint) documents its 422 in that shape.
      const body = route.errorBody ? 'OpenAIErrorResponse' : 'HTTPValidationError';
      t.same(operation.responses['422']?.content['application/json'].schema, { $ref: `#/components/schemas/${body}` }, `${route.method} ${route.path} 422`);
    }
    t.ok(doc.components.schemas.HTTPValidationError, 'HTTPValidationError is a component');
  });

  t.test('path parameters are declared for every {param}', async (t) => {
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      for (const operation of Object.values(item)) {
        const declared = (operation.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => p.name);
        t.same(declared, names, `${path} ${operation.operationId}`);
      }
    }
  });

  t.test('query parameters come from the query schema', async (t) => {
    const list = doc.paths['/api/v1/users'].get;
    const skip = list.parameters.find((p: any) => p.name === 'skip');
    t.match(skip, { in: 'query', required: false, schema: { type: 'integer', default: 0 } });
  });

  t.test('security follows each route\'s auth mode', async (t) => {
    const schemes = doc.components.securitySchemes;
    t.same(schemes['API key header'], { type: 'apiKey', in: 'header', name: 'x-api-key' });
    t.same(schemes['API key query'], { type: 'apiKey', in: 'query', name: 'x-api-key' });
    t.match(schemes.OAuth2PasswordBearerCookie, { type: 'oauth2', flows: { password: { tokenUrl: 'api/v1/login' } } });
    const expected: Record<string, string[][] | undefined> = {
      none: undefined,
      user: [['OAuth2PasswordBearerCookie'], ['API key query'], ['API key header']],
      superuser: [['OAuth2PasswordBearerCookie'], ['API key query'], ['API key header']],
      'api-key': [['API key query'], ['API key header']],
      'api-key-v2': [['API key query'], ['API key header']],
      webhook: [['API key query'], ['API key header']],
    };
    for (const route of visible) {
      const operation = doc.paths[openApiPath(route.path)][route.method.toLowerCase()];
      const names = operation.security?.map((requirement: object) => Object.keys(requirement));
      t.same(names, expected[route.auth], `${route.method} ${route.path} (${route.auth})`);
    }
  });

  t.test('schemas with an id are shared components, and every $ref resolves', async (t) => {
    t.same(doc.paths['/api/v1/users/whoami'].get.responses['200'].content['application/json'].schema, { $ref: '#/components/schemas/UserRead' });
    t.ok(doc.components.schemas.UserRead?.properties?.username, 'UserRead is defined once under components');
    const prefix = '#/components/schemas/';
    for (const ref of new Set(refsIn(doc))) {
      t.ok(ref.startsWith(prefix) && doc.components.schemas[ref.slice(prefix.length)], `resolves: ${ref}`);
    }
  });

  t.test('operation ids are unique', async (t) => {
    const ids = Object.values(doc.paths as Record<string, Record<string, any>>).flatMap((item) => Object.values(item).map((op) => op.operationId));
    t.equal(new Set(ids).size, ids.length);
  });

  t.test('the same bytes on every request (built once)', async (t) => {
    const again = await server.request('/openapi.json', { key: null });
    t.same(await again.json(), doc);
  });
});

t.test('/docs', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());

  t.test('a browser gets the Swagger UI page, with its assets served locally', async (t) => {
    const res = await server.request('/docs', { key: null, headers: { accept: BROWSER_ACCEPT } });
    t.equal(res.status, 200);
    t.match(res.headers.get('content-type'), /^text\/html/);
    const html = await res.text();
    t.match(html, /SwaggerUIBundle/);
    t.match(html, /"url":"\/openapi\.json"/);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    t.ok(assets.length >= 2, `assets: ${assets}`);
    t.notOk(assets.some((url) => /^(https?:)?\/\//.test(url)), 'no CDN');
    const script = assets.find((url) => url.includes('swagger-ui-bundle.js'));
    const style = assets.find((url) => url.includes('swagger-ui.css'));
    t.ok(script && style, 'the bundle and the stylesheet are referenced');
    for (const url of assets) {
      const asset = await server.request(url, { key: null });
      t.equal(asset.status, 200, url);
      await asset.arrayBuffer();
    }
    const js = await server.request(script!, { key: null });
    t.match(js.headers.get('content-type'), /^text\/javascript/);
    t.match(await js.text(), /SwaggerUIBundle/);
    const css = await server.request(style!, { key: null });
    t.match(css.headers.get('content-type'), /^text\/css/);
    await css.arrayBuffer();
  });

  t.test('no Accept header also gets the page', async (t) => {
    const res = await server.request('/docs', { key: null, headers: { accept: '' } });
    t.match(res.headers.get('content-type'), /^text\/html/);
    await res.arrayBuffer();
  });

  t.test('a client asking for JSON gets the OpenAPI document', async (t) => {
    const document = await (await server.request('/openapi.json', { key: null })).json();
    for (const accept of ['application/json', 'application/json, text/plain, */*', 'text/html;q=0.5, application/json']) {
      const res = await server.request('/docs', { key: null, headers: { accept } });
      t.equal(res.status, 200, accept);
      t.match(res.headers.get('content-type'), /^application\/json/, accept);
      t.match(res.headers.get('vary'), /Accept/);
      t.same(await res.json(), document, accept);
    }
  });

  t.test('only Swagger UI files are served under /docs/assets', async (t) => {
    for (const name of ['package.json', '..%2F..%2Fpackage.json', 'index.js', 'nope.js']) {
      const res = await server.request(`/docs/assets/${name}`, { key: null });
      t.equal(res.status, 404, name);
      t.same(await res.json(), { detail: 'Not Found' });
    }
  });
});

t.test('process and predict are listed, as deprecated; run is not', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const doc = (await (await server.request('/openapi.json')).json()) as { paths: Record<string, Record<string, { deprecated?: boolean }>> };
  t.equal(doc.paths['/api/v1/process/{flow_id_or_name}']?.post?.deprecated, true);
  t.equal(doc.paths['/api/v1/predict/{flow_id_or_name}']?.post?.deprecated, true);
  t.equal(doc.paths['/api/v1/run/{flow_id_or_name}']?.post?.deprecated, undefined);
});

t.test("a run without a key is told what to send, in this service's words", async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const res = await server.request('/api/v1/run/some-flow', { method: 'POST', key: null, json: {} });
  t.equal(res.status, 403);
  const { detail } = (await res.json()) as { detail: string };
  t.match(detail, /x-api-key header or the x-api-key query parameter/);
  t.match(detail, /bearer tokens are not accepted/);
  t.notMatch(detail, /v1\.5/);
});
