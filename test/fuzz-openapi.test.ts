/**
 * Every operation of our own /openapi.json, sent malformed paths, queries and bodies (oversized ids, deep nesting,
 * long arrays, `__proto__` keys, wrong types). Each request must get an answer within 5 s, never a 5xx, with an
 * error body in the documented shape ({"detail": ...}; OpenAI's {"error": ...} on the responses routes), and the
 * process must answer /health after each operation. Deterministic: the same requests every run.
 *
 * Then, on every adapter that can serve here: multipart bodies built to break a form parser on every upload route,
 * undecodable and 10 KB cookies and headers and duplicated credentials on every route, and every route that needs a
 * key called without one, its body announced but never sent: the refusal must come from the head alone.
 */
import t from 'tap';
import { SERVABLE_ADAPTERS } from './support/adapters.js';
import { createFlow } from './support/flow-helpers.js';
import { COOKIES, duplicatedAuth, HUGE_HEADERS, MULTIPART_CASES } from './support/fuzz-cases.js';
import { createKb } from './support/knowledge.js';
import { head, rawRequest } from './support/raw-http.js';
import { echoFlow } from './support/langflow-json.js';
import { startTestServer, type TestServer } from './support/server.js';

interface Operation {
  method: string;
  path: string;
  parameters?: { name: string; in: 'path' | 'query' | 'header' }[];
  requestBody?: { content: Record<string, unknown> };
  security?: unknown[];
}

const deep = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

/** Values for path parameters: each replaces every parameter of the path at once. */
const PATH_VALUES = ['x'.repeat(10 * 1024), '..%2F..%2Fetc%2Fpasswd', '%00', '%F0%9F%98%80', '-1', 'null', '%E2%80%AE', ' '];

/** Query strings, appended to each operation. */
const QUERIES = ['?limit=-1&skip=abc&page=0&size=99999', `?session_id=${'s'.repeat(5000)}&flow_id=${'f'.repeat(5000)}`, '?stream=maybe&job_id=%00', '?x-api-key=&get_all=2'];

/** Request bodies, raw, each sent as JSON. */
const BODIES = [
  '',
  'null',
  '[]',
  '"text"',
  '123',
  '{',
  '{}',
  deep(10_000),
  JSON.stringify(Array.from({ length: 100_000 }, (_, i) => i)),
  '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}',
  JSON.stringify({ name: 'x'.repeat(100_000), session_id: 's'.repeat(100_000), flow_id: 'f'.repeat(3000), model: 'm'.repeat(3000), input: 1, input_value: { a: 1 }, inputs: 'x', tweaks: [1], data: 'x', flows: {}, username: 1, password: [], value: null, type: 'nope' }),
];

function fill(path: string, value: string): string {
  return path.replace(/\{[^}]+\}/g, value);
}

type Answer = { status: number; text: string; type?: string } | { error: string };

async function send(server: TestServer, method: string, path: string, body?: string | Buffer, extra: { headers?: Record<string, string>; key?: string | null } = {}): Promise<Answer> {
  try {
    const init: RequestInit & { key?: string | null } = { method, signal: AbortSignal.timeout(5000), key: extra.key, headers: extra.headers };
    if (body !== undefined && method !== 'GET' && method !== 'HEAD') {
      init.body = typeof body === 'string' ? body : new Uint8Array(body);
      init.headers = { 'content-type': 'application/json', ...extra.headers };
    }
    const res = await server.request(path, init);
    const type = res.headers.get('content-type') ?? '';
    // An event stream that opened (an MCP session's) stays open by design: its opening is the answer.
    if (res.status === 200 && type.startsWith('text/event-stream') && path.startsWith('/api/v1/mcp')) {
      await res.body?.cancel();
      return { status: res.status, text: '', type };
    }
    return { status: res.status, text: method === 'HEAD' ? '' : await res.text(), type };
  } catch (error) {
    return { error: (error as Error).name === 'TimeoutError' ? 'no answer within 5 s' : (error as Error).message };
  }
}

function shapeProblem(path: string, status: number, text: string, type = ''): string | undefined {
  if (status < 400 || text === '') return undefined;
  // MCP paths answer as the MCP SDK's transports do: JSON-RPC errors, and plain text on the legacy message posts.
  if (path.startsWith('/api/v1/mcp') && type.startsWith('text/plain')) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'error body is not JSON';
  }
  const key = path.startsWith('/api/v1/responses') ? 'error' : 'detail';
  if (path.startsWith('/api/v1/mcp') && body && typeof body === 'object' && 'jsonrpc' in body && 'error' in body) return undefined;
  return body && typeof body === 'object' && key in body ? undefined : `error body lacks "${key}"`;
}

t.test('fuzzing every operation of /openapi.json: answers within 5 s, no 5xx, documented error shapes, alive', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const flowId = (await createFlow(server, echoFlow('Fuzz target', { endpoint_name: 'fuzz' })))['id'] as string;
  const doc = (await (await server.request('/openapi.json')).json()) as { paths: Record<string, Record<string, Operation>> };
  const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ ...op, method: method.toUpperCase(), path })));
  t.ok(operations.length > 40, `${operations.length} operations`);
  const problems: string[] = [];
  let requests = 0;
  for (const op of operations) {
    const paths = op.path.includes('{') ? [...PATH_VALUES.map((v) => fill(op.path, v)), fill(op.path, flowId)] : [op.path];
    for (const path of paths) {
      const variants: [string, string | undefined][] = [[path, undefined], ...QUERIES.map((q): [string, undefined] => [path + q, undefined])];
      if (op.requestBody || ['POST', 'PUT', 'PATCH', 'DELETE'].includes(op.method)) variants.push(...BODIES.map((b): [string, string] => [path, b]));
      for (const [target, body] of variants) {
        requests++;
        const answer = await send(server, op.method, target, body);
        const what = `${op.method} ${target.slice(0, 80)}${body === undefined ? '' : ` body ${body.slice(0, 40)}`}`;
        if ('error' in answer) problems.push(`${what}: ${answer.error}`);
        else if (answer.status >= 500) problems.push(`${what}: ${answer.status} ${answer.text.slice(0, 120)}`);
        else {
          const problem = shapeProblem(target, answer.status, answer.text, answer.type);
          if (problem) problems.push(`${what}: ${answer.status} ${problem}`);
        }
      }
    }
    const health = await send(server, 'GET', '/health');
    if ('error' in health || health.status !== 200) problems.push(`after ${op.method} ${op.path}: /health did not answer 200`);
  }
  t.ok(requests > 1000, `${requests} requests sent`);
  t.same(problems.slice(0, 30), [], `${problems.length} problems`);
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype polluted');
});

/** Upload routes: multipart in the document, or the streamed uploads (files, ingestion), which it lists without a body. */
const isUpload = (op: Operation & { template: string }) => op.method === 'POST' && (Boolean(op.requestBody?.content['multipart/form-data']) || /\/(upload|files|ingest)(\/\{[^}]+\})?$/.test(op.template));

for (const adapter of SERVABLE_ADAPTERS) {
  t.test(`${adapter}: multipart bodies, cookies, headers and anonymous calls on every route: no 5xx, within 5 s, alive`, async (t) => {
    const server = await startTestServer({ HTTP_SERVER: adapter });
    t.teardown(() => server.close());
    const flowId = (await createFlow(server, echoFlow('Fuzz target', { endpoint_name: 'fuzz' })))['id'] as string;
    // A knowledge base named like the id every path parameter gets, so that ingestions reach their form.
    t.equal((await createKb(server, flowId)).status, 201);
    const doc = (await (await server.request('/openapi.json')).json()) as { paths: Record<string, Record<string, Operation>> };
    const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ ...op, method: method.toUpperCase(), path: fill(path, flowId), template: path })));
    const problems: string[] = [];
    const check = (what: string, answer: Answer) => {
      if ('error' in answer) problems.push(`${what}: ${answer.error}`);
      else if (answer.status >= 500) problems.push(`${what}: ${answer.status} ${answer.text.slice(0, 120)}`);
    };
    const alive = async (after: string) => {
      const health = await send(server, 'GET', '/health');
      if ('error' in health || health.status !== 200) problems.push(`after ${after}: /health did not answer 200`);
    };
    const uploads = operations.filter(isUpload);
    t.ok(uploads.length >= 5, `upload routes: ${uploads.map((op) => op.path).join(', ')}`);
    for (const op of uploads) {
      for (const form of MULTIPART_CASES) check(`${op.path} multipart ${form.what}`, await send(server, 'POST', op.path, form.body, { headers: { 'content-type': form.contentType } }));
      await alive(`multipart on ${op.path}`);
    }
    let anonymousChecked = 0;
    for (const op of operations) {
      const what = `${op.method} ${op.path}`;
      for (const cookie of COOKIES) {
        const anonymous = await send(server, op.method, op.path, undefined, { key: null, headers: { cookie } });
        check(`${what} cookie ${cookie.slice(0, 30)} without a key`, anonymous);
        if (op.security && 'status' in anonymous && ![401, 403, 404].includes(anonymous.status)) problems.push(`${what} with only a bad cookie: ${anonymous.status}`);
        check(`${what} cookie ${cookie.slice(0, 30)} with a key`, await send(server, op.method, op.path, undefined, { headers: { cookie } }));
      }
      for (const headers of HUGE_HEADERS) check(`${what} 10 KB ${Object.keys(headers)[0]}`, await send(server, op.method, op.path, undefined, { key: null, headers }));
      const doubled = await rawRequest(server.port, duplicatedAuth(op.method, op.path, server.apiKey), 5000);
      if (doubled.status === undefined || doubled.status >= 500) problems.push(`${what} duplicated credentials: ${doubled.status ?? 'no answer'}`);
      if (op.security && op.method !== 'HEAD') {
        // 100 KB announced, 1 KB sent, no key: only a refusal made from the head can come back within the deadline.
        const declared: Record<string, string | number> = op.method === 'GET' ? { 'content-length': 0 } : { 'content-type': 'application/json', 'content-length': 100_000 };
        const anonymous = await rawRequest(server.port, head(op.method, op.path, declared) + (op.method === 'GET' ? '' : '{"x":"'.padEnd(1024, 'x')), 5000, false);
        anonymousChecked++;
        if (anonymous.status === undefined || ![401, 403, 404].includes(anonymous.status)) problems.push(`${what} without a key, body unsent: ${anonymous.status ?? 'no answer within 5 s'}`);
      }
      await alive(what);
    }
    t.ok(anonymousChecked > 40, `${anonymousChecked} routes that need a key refused an anonymous caller before reading its body`);
    t.same(problems.slice(0, 30), [], `${problems.length} problems`);
    t.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype polluted');
  });
}
