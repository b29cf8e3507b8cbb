/** The OpenAPI generator on small, made-up route tables: the cases the live table may not (yet) contain. */
import t from 'tap';
import { z } from 'zod';
import { defineRoute, type Route } from '../src/edge/route.js';
import { buildOpenApiDocument } from '../src/openapi/document.js';
import { SchemaComponents } from '../src/openapi/schema-components.js';

const options = { title: 'test', version: '1.2.3', webhookAuth: true };
const route = (overrides: Partial<Route>): Route =>
  defineRoute({ method: 'GET', path: '/x', summary: 's', tags: ['T'], auth: 'none', handler: () => null, ...overrides } as Route);

t.test('undeclared replies are a 200 with any JSON; no input, no 422', async (t) => {
  const doc = buildOpenApiDocument([route({})], options);
  t.same(doc.paths['/x'].get!.responses, { 200: { description: 'Successful Response', content: { 'application/json': { schema: {} } } } });
});

t.test('path parameters exist even without a params schema', async (t) => {
  const doc = buildOpenApiDocument([route({ path: '/flows/:flow_id/runs/:run_id' })], options);
  const operation = doc.paths['/flows/{flow_id}/runs/{run_id}'].get!;
  t.same(
    operation.parameters!.map((p) => [p.name, p.in, p.required, p.schema]),
    [
      ['flow_id', 'path', true, { type: 'string' }],
      ['run_id', 'path', true, { type: 'string' }],
    ],
  );
  t.equal(operation.operationId, 'get_flows_flow_id_runs_run_id');
});

t.test('query parameter descriptions sit beside their schema', async (t) => {
  const doc = buildOpenApiDocument([route({ query: z.object({ q: z.string().describe('Search text') }) })], options);
  t.same(doc.paths['/x'].get!.parameters, [{ name: 'q', in: 'query', required: true, schema: { type: 'string' }, description: 'Search text' }]);
});

t.test('a body that may be empty is an optional requestBody', async (t) => {
  const doc = buildOpenApiDocument([route({ method: 'POST', body: z.object({ a: z.string() }).optional() })], options);
  t.equal(doc.paths['/x'].post!.requestBody!.required, false);
  t.ok(doc.paths['/x'].post!.responses['422'], 'validated input documents 422');
});

t.test('multipart bodies show the form fields and the file', async (t) => {
  const doc = buildOpenApiDocument([route({ method: 'POST', bodyKind: 'multipart', body: z.object({ folder_id: z.string().optional() }) })], options);
  const schema = doc.paths['/x'].post!.requestBody!.content['multipart/form-data'].schema as any;
  t.same(Object.keys(schema.properties), ['folder_id', 'file']);
  t.equal(schema.properties.file.format, 'binary');
  t.same(schema.required, ['file']);
});

t.test('raw bodies without a schema document no requestBody and no 422', async (t) => {
  const doc = buildOpenApiDocument([route({ method: 'POST', bodyKind: 'raw' })], options);
  t.notOk(doc.paths['/x'].post!.requestBody);
  t.notOk(doc.paths['/x'].post!.responses['422']);
});

t.test('204 replies carry no content; other declared replies keep their media type', async (t) => {
  const doc = buildOpenApiDocument(
    [route({ method: 'DELETE', responses: { 204: { description: 'Gone' }, 200: { description: 'CSV', contentType: 'text/csv' } } })],
    options,
  );
  const responses = doc.paths['/x'].delete!.responses;
  t.same(responses['204'], { description: 'Gone' });
  t.same(responses['200'], { description: 'CSV', content: { 'text/csv': { schema: {} } } });
});

t.test('hidden routes are left out; tags are listed once, in order of use', async (t) => {
  const doc = buildOpenApiDocument([route({ tags: ['B'] }), route({ path: '/y', tags: ['A', 'B'] }), route({ path: '/alias', hidden: true, tags: ['C'] })], options);
  t.same(Object.keys(doc.paths), ['/x', '/y']);
  t.same(doc.tags, [{ name: 'B' }, { name: 'A' }]);
});

t.test('webhook security follows FLOWSVC_WEBHOOK_AUTH_ENABLE; superuser routes say so', async (t) => {
  const webhook = route({ method: 'POST', auth: 'webhook' });
  t.ok(buildOpenApiDocument([webhook], options).paths['/x'].post!.security);
  t.notOk(buildOpenApiDocument([webhook], { ...options, webhookAuth: false }).paths['/x'].post!.security);
  const admin = buildOpenApiDocument([route({ auth: 'superuser' })], options).paths['/x'].get!;
  t.match(admin.description, /superuser/);
});

t.test('an id that renders differently as input and output gets a suffixed input component', async (t) => {
  const Shared = z.object({ page: z.number().default(1) }).meta({ id: 'Paging' });
  const components = new SchemaComponents();
  t.same(components.convert(Shared, 'output'), { $ref: '#/components/schemas/Paging' });
  t.same(components.convert(Shared, 'input'), { $ref: '#/components/schemas/Paging-Input' });
  t.same(components.schemas.Paging.required, ['page'], 'output: always present');
  t.notOk(components.schemas['Paging-Input'].required, 'input: may be left out');
  t.same(components.convert(Shared, 'output'), { $ref: '#/components/schemas/Paging' }, 'the same rendering reuses the component');
});

t.test('nested ids are referenced from inside other schemas', async (t) => {
  const Item = z.object({ id: z.string() }).meta({ id: 'Item' });
  const components = new SchemaComponents();
  const page = components.convert(z.object({ items: z.array(Item), total: z.number().int() }), 'output');
  t.same((page as any).properties.items, { type: 'array', items: { $ref: '#/components/schemas/Item' } });
  t.same((page as any).properties.total, { type: 'integer' }, 'no ±2^53 bounds from .int()');
});
