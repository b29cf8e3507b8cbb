/**
 * Bodies built to hurt, through the real HTTP edge: nesting past the parser's bound, `__proto__` keys at every
 * entry point, millions of array items, bodies over the JSON limit, and a reply that cannot be encoded. Each gets a
 * small, clear answer, and the process keeps serving.
 */
import t from 'tap';
import { MAX_JSON_DEPTH, parseUntrustedJson } from '../protocol/json-guard.js';
import { LIST_MAX_ITEMS } from '../protocol/limits.js';
import { defineRoute } from '../src/edge/route.js';
import { startEdge } from '../src/edge/uws-server.js';
import { testAdapter } from './support/adapters.js';
import { MAX_LISTED_ISSUES } from '../src/errors/validation.error.js';
import pino from 'pino';
import { createFlow } from './support/flow-helpers.js';
import { echoFlow } from './support/langflow-json.js';
import { startTestServer, type TestServer } from './support/server.js';

const nested = (depth: number, leaf = '1') => '['.repeat(depth) + leaf + ']'.repeat(depth);
const nestedObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

async function post(server: TestServer, path: string, body: string, method = 'POST'): Promise<Response> {
  return server.request(path, { method, body, headers: { 'content-type': 'application/json' } });
}

t.test('nesting past the bound is a 422 at the body, before anything walks it', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const flowId = (await createFlow(server, echoFlow('Deep')))['id'];
  const deep = nestedObject(10_000);
  const cases: [string, string, string][] = [
    ['POST', '/api/v1/flows/', `{"name":"deep","data":{"nodes":[],"edges":[],"x":${deep}}}`],
    ['PATCH', `/api/v1/users/${'0'.repeat(8)}-0000-0000-0000-000000000000`, `{"optins":${deep}}`],
    ['POST', '/api/v1/projects/', `{"name":"p","auth_settings":${deep}}`],
    ['PUT', `/api/v1/monitor/messages/${'0'.repeat(8)}`, `{"properties":${deep}}`],
    ['POST', `/api/v1/run/advanced/${flowId}`, `{"tweaks":${deep}}`],
    ['POST', '/api/v2/workflows', `{"flow_id":"${flowId}","inputs":{"x":${nested(10_000)}}}`],
  ];
  for (const [method, path, body] of cases) {
    const res = await post(server, path, body, method);
    t.equal(res.status, 422, `${method} ${path}: 422`);
    const detail = ((await res.json()) as { detail: { loc: unknown[]; type: string }[] }).detail;
    t.same([detail[0].loc, detail[0].type], [['body'], 'json_too_deep']);
  }
  const atBound = await post(server, '/api/v1/flows/', `{"name":"deep enough","data":{"nodes":[],"edges":[],"x":${nestedObject(MAX_JSON_DEPTH - 3)}}}`);
  t.equal(atBound.status, 201, 'nesting within the bound is stored');
  const inString = await post(server, '/api/v1/flows/', JSON.stringify({ name: 'brackets in text', description: '['.repeat(20_000) }));
  t.equal(inString.status, 201, 'brackets inside strings do not count');
  t.equal((await server.request('/health')).status, 200);
});

t.test('__proto__ keys never reach a prototype, at any entry point', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const flowId = (await createFlow(server, echoFlow('Proto', { endpoint_name: 'proto' })))['id'];
  const evil = '{"__proto__":{"polluted":"yes","input_value":"x"},"constructor":{"prototype":{"polluted":"yes"}}}';
  const cases: [string, string, string][] = [
    ['POST', `/api/v1/run/${flowId}`, `{"input_value":"hi","tweaks":${evil},"__proto__":{"polluted":"yes"}}`],
    ['POST', `/api/v1/run/advanced/${flowId}`, `{"inputs":[{"components":[],"input_value":"hi"}],"tweaks":{"ChatInput-in":${evil}},"__proto__":{"polluted":"yes"}}`],
    ['POST', `/api/v1/webhook/${flowId}`, evil],
    ['POST', '/api/v2/workflows', `{"flow_id":"${flowId}","inputs":${evil},"globals":{"__proto__":{"polluted":"yes"}}}`],
    ['POST', '/api/v1/responses', `{"model":"${flowId}","input":"hi","__proto__":{"polluted":"yes"},"metadata":${evil}}`],
    ['POST', '/api/v1/flows/', `{"name":"evil","data":{"nodes":[],"edges":[],"__proto__":{"polluted":"yes"}},"__proto__":{"polluted":"yes"}}`],
    ['PATCH', `/api/v1/flows/${flowId}`, `{"data":${evil},"__proto__":{"polluted":"yes"}}`],
    ['POST', '/api/v1/variables/', `{"name":"v1","value":"x","type":"Generic","__proto__":{"polluted":"yes"}}`],
  ];
  for (const [method, path, body] of cases) {
    const res = await post(server, path, body, method);
    t.ok(res.status < 500, `${method} ${path}: ${res.status}`);
    await res.arrayBuffer();
  }
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype untouched');
  t.equal((Object as unknown as Record<string, unknown>).polluted, undefined, 'Object untouched');
  const stored = await (await server.request('/api/v1/flows/?get_all=true&header_flows=false')).json();
  const evilFlow = (stored as { name: string; data: Record<string, unknown> }[]).find((f) => f.name === 'evil');
  t.ok(evilFlow && !Object.hasOwn(evilFlow.data, '__proto__'), 'the __proto__ key was dropped, not stored');
  const run = await server.request('/api/v1/run/proto', { method: 'POST', json: { input_value: 'still works' } });
  t.equal(run.status, 200, 'the service keeps running flows');
});

t.test('__proto__ keys spelt with escapes are dropped too: the guard sees keys decoded', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const spellings = ['\\u005f_proto__', '_\\u005Fproto__', '\\u005f\\u005f\\u0070\\u0072\\u006f\\u0074\\u006f\\u005f\\u005f'];
  for (const [i, key] of spellings.entries()) {
    const node = `{"id":"n1","data":{"${key}":{"polluted":"yes"},"x":1}}`;
    const body = `{"name":"escaped ${i}","description":"caf\\u00e9","data":{"nodes":[${node}],"edges":[],"${key}":{"polluted":"yes"}},"${key}":{"polluted":"yes"}}`;
    const res = await post(server, '/api/v1/flows/', body);
    t.equal(res.status, 201, `"${key}": stored without it`);
    const text = await res.text();
    t.notMatch(text, /__proto__|polluted/, `"${key}" was dropped, not stored`);
    const created = JSON.parse(text) as { id: string; description: string; data: { nodes: { data: Record<string, unknown> }[] } };
    t.equal(created.description, 'café', 'other escapes decode as before');
    t.same(created.data.nodes[0]!.data, { x: 1 });
    t.notMatch(await (await server.request(`/api/v1/flows/${created.id}`)).text(), /__proto__|polluted/, 'nor read back');
  }
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype untouched');
  t.same(parseUntrustedJson(Buffer.from('{"a":"\\u0041","\\u005f_proto__":1}')), { a: 'A' }, 'the parser drops it');
});

t.test('two million array items: a small, quick 422, and /health answers meanwhile', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const items = JSON.stringify(Array.from({ length: 2_000_000 }, (_, i) => i));
  for (const [method, path] of [['DELETE', '/api/v1/flows/'], ['POST', '/api/v1/flows/download/'], ['DELETE', '/api/v1/monitor/messages']]) {
    const pending = post(server, path, items, method);
    const health = await server.request('/health');
    t.equal(health.status, 200, 'health answers while the body is handled');
    const res = await pending;
    t.equal(res.status, 422, `${method} ${path}: 422`);
    const text = await res.text();
    t.ok(text.length < 10_000, `a small body (${text.length} bytes)`);
    t.match(text, String(LIST_MAX_ITEMS), 'that names the bound');
  }
});

t.test('a 422 lists at most a few dozen issues and says how many more there were', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const flows = Array.from({ length: 300 }, () => ({ description: 'no name' }));
  const res = await server.request('/api/v1/flows/batch/', { method: 'POST', json: { flows } });
  t.equal(res.status, 422);
  const detail = ((await res.json()) as { detail: { loc: unknown[]; msg: string; type: string }[] }).detail;
  t.equal(detail.length, MAX_LISTED_ISSUES + 1);
  t.same(detail.at(-1), { loc: [], msg: `${300 - MAX_LISTED_ISSUES} more validation errors not listed`, type: 'too_many_errors' });
});

t.test('JSON bodies over FLOWSVC_MAX_JSON_BODY_MB answer 413, flow files too; streamed uploads keep their own limit', async (t) => {
  const server = await startTestServer({ MAX_JSON_BODY_MB: '1', MAX_FILE_SIZE_UPLOAD: '4' });
  t.teardown(() => server.close());
  const big = JSON.stringify({ name: 'big', description: 'x'.repeat(2 * 1024 * 1024) });
  const res = await post(server, '/api/v1/flows/', big);
  t.equal(res.status, 413);
  t.same(await res.json(), { detail: 'Content size limit exceeded. Maximum allowed is 1MB and got 2.0MB.' });
  const form = () => {
    const body = new FormData();
    body.set('file', new Blob([big], { type: 'application/json' }), 'big.json');
    return body;
  };
  // A flow file is JSON read into memory: the JSON limit, not the upload one, refused from its declared length.
  for (const path of ['/api/v1/flows/upload/', '/api/v1/projects/upload/']) {
    const upload = await server.request(path, { method: 'POST', body: form() });
    t.equal(upload.status, 413, `${path}: 413`);
    t.match(await upload.json(), { detail: /Maximum allowed is 1MB/ });
  }
  const file = await server.request('/api/v2/files', { method: 'POST', body: form() });
  t.equal(file.status, 201, 'a 2 MB file passes under the 4 MB upload limit');
});

t.test('a reply that cannot be encoded is a clean 500, logged with its route, and the process serves on', async (t) => {
  const lines: string[] = [];
  const logger = pino({ level: 'error' }, { write: (line: string) => void lines.push(line) });
  const route = defineRoute({ method: 'GET', path: '/unencodable', summary: 'x', tags: [], auth: 'none', responses: {}, handler: () => ({ big: BigInt(1) }) });
  const ok = defineRoute({ method: 'GET', path: '/ok', summary: 'x', tags: [], auth: 'none', responses: {}, handler: () => ({ ok: true }) });
  const edge = await startEdge({ host: '127.0.0.1', port: 0, adapter: await testAdapter(), routes: [route, ok], authenticator: { authenticate: async () => undefined } as never, logger, bodyLimit: 1 << 20, jsonBodyLimit: 1 << 20 });
  t.teardown(() => edge.close());
  const res = await fetch(`http://127.0.0.1:${edge.port}/unencodable`);
  t.equal(res.status, 500);
  t.same(await res.json(), { detail: 'The reply is too large to encode' });
  t.match(lines.join(''), 'reply could not be encoded');
  t.match(lines.join(''), '/unencodable', 'the log names the route');
  t.same(await (await fetch(`http://127.0.0.1:${edge.port}/ok`)).json(), { ok: true });
});

t.test('a client that aborts mid-body is logged at debug, not as a server error', async (t) => {
  const lines: { level: number; msg: string; path?: string }[] = [];
  let logged!: () => void;
  const aborted = new Promise<void>((resolve) => (logged = resolve));
  const logger = pino({ level: 'debug' }, {
    write: (line: string) => {
      const entry = JSON.parse(line) as { level: number; msg: string; path?: string };
      lines.push(entry);
      // Either way the test ends: the debug line, or an error line in its place.
      if (entry.msg === 'client aborted the request' || entry.level >= 50) logged();
    },
  });
  const route = defineRoute({ method: 'POST', path: '/echo', summary: 'x', tags: [], auth: 'none', responses: {}, handler: ({ body }) => ({ body }) });
  const edge = await startEdge({ host: '127.0.0.1', port: 0, adapter: await testAdapter(), routes: [route], authenticator: { authenticate: async () => undefined } as never, logger, bodyLimit: 1 << 20, jsonBodyLimit: 1 << 20 });
  t.teardown(() => edge.close());
  const { connect } = await import('node:net');
  const socket = connect(edge.port, '127.0.0.1', () => {
    socket.write('POST /echo HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"a":', () => socket.destroy());
  });
  await aborted;
  t.same(lines.filter((l) => l.level >= 50), [], 'nothing at error');
  t.equal(lines.find((l) => l.msg === 'client aborted the request')?.path, '/echo');
});
