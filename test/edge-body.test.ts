/**
 * The edge under awkward clients: bodies over the limit (declared or chunked), clients that vanish mid-body or
 * mid-wait, and replies too large for one socket write. Each case ends by checking the server still answers:
 * the server runs in this process, so a crash (an unhandled rejection, say) fails the file outright.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import { connect, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import t from 'tap';
import { startTestServer, type TestServer } from './support/server.js';
import { readAfterStall } from './support/stalled-reader.js';

const MB = 1024 * 1024;

interface RawReply {
  status?: number;
  body: string;
  error?: string;
}

/** POSTs `total` bytes with no content-length (chunked), as fast as the socket takes them. */
function postChunked(server: TestServer, path: string, headers: Record<string, string>, total: number): Promise<RawReply> {
  return new Promise((resolve) => {
    const req = httpRequest(server.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode, body }));
      res.on('error', (error) => resolve({ status: res.statusCode, body, error: String(error) }));
    });
    // The server may answer and close before the whole body is sent; what matters is the reply it gave.
    req.on('error', (error) => resolve({ body: '', error: String(error) }));
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

/** A raw TCP client, for behaviour no well-mannered HTTP client produces. */
function openSocket(server: TestServer): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The status of a plain request made afterwards: 200 means the server survived. */
async function healthStatus(server: TestServer): Promise<number> {
  const res = await server.request('/health', { key: null });
  await res.arrayBuffer();
  return res.status;
}

t.test('bodies over the limit', async (t) => {
  const server = await startTestServer({ MAX_JSON_BODY_MB: '1' });
  t.teardown(() => server.close());

  t.test('a declared 2 MB body is refused with 413 before it is read', async (t) => {
    const res = await server.request('/api/v1/users', { method: 'POST', body: 'x'.repeat(2 * MB), headers: { 'content-type': 'application/json' } });
    t.equal(res.status, 413);
    t.same(await res.json(), { detail: 'Content size limit exceeded. Maximum allowed is 1MB and got 2.0MB.' }, "Langflow's wording");
    t.equal(await healthStatus(server), 200, 'the server still answers');
  });

  t.test('a chunked body is counted as it arrives', async (t) => {
    const reply = await postChunked(server, '/api/v1/users', { 'x-api-key': server.apiKey }, 2 * MB);
    t.equal(reply.status, 413, reply.error ?? 'status');
    t.match(JSON.parse(reply.body).detail, /^Content size limit exceeded\. Maximum allowed is 1MB and got 1\.\d+MB\.$/);
    t.equal(await healthStatus(server), 200, 'the server still answers');
  });

  // Regression: auth failed before the body was awaited, so the body's later rejection had no handler and
  // Node ended the process (unhandled rejection).
  t.test('a refused caller streaming an oversized body does not bring the server down', async (t) => {
    const reply = await postChunked(server, '/api/v1/users', {}, 2 * MB);
    t.equal(reply.status, 403, reply.error ?? 'status');
    await pause(50);
    t.equal(await healthStatus(server), 200, 'the server still answers');
  });

  t.test('a body within the limit still goes through', async (t) => {
    const res = await server.request('/api/v1/users', { method: 'POST', json: { username: 'within-limit', password: 'pw' } });
    t.equal(res.status, 201);
  });
});

t.test('clients that go away', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());

  const abortMidBody = async (apiKey: string | undefined) => {
    const socket = await openSocket(server);
    socket.on('error', () => undefined);
    socket.write(
      'POST /api/v1/users HTTP/1.1\r\nHost: localhost\r\ncontent-type: application/json\r\n' +
        (apiKey ? `x-api-key: ${apiKey}\r\n` : '') +
        'content-length: 5000000\r\n\r\n{"username": "' +
        'a'.repeat(64 * 1024),
    );
    await pause(30);
    socket.destroy();
    await pause(30);
  };

  t.test('aborting mid-body (authenticated) does not crash the server', async (t) => {
    await abortMidBody(server.apiKey);
    t.equal(await healthStatus(server), 200, 'the server still answers');
  });

  t.test('aborting mid-body (refused) does not crash the server', async (t) => {
    await abortMidBody(undefined);
    t.equal(await healthStatus(server), 200, 'the server still answers');
  });

  t.test('disconnecting while the handler works does not crash the server', async (t) => {
    // Login hashes the password (scrypt), so the reply is still being computed when the client leaves.
    const socket = await openSocket(server);
    socket.on('error', () => undefined);
    const form = 'username=langflow&password=test-password';
    socket.write(`POST /api/v1/login HTTP/1.1\r\nHost: localhost\r\ncontent-type: application/x-www-form-urlencoded\r\ncontent-length: ${form.length}\r\n\r\n${form}`);
    socket.destroy();
    await pause(200);
    t.equal(await healthStatus(server), 200, 'the server still answers');
  });

  t.test('disconnecting halfway through a large reply does not crash the server', async (t) => {
    const socket = await openSocket(server);
    socket.on('error', () => undefined);
    socket.write('GET /docs/assets/swagger-ui-bundle.js HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await new Promise((resolve) => socket.once('data', resolve));
    socket.destroy();
    await pause(50);
    t.equal(await healthStatus(server), 200, 'the server still answers');
  });
});

t.test('large replies arrive intact', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  // The Swagger UI bundle (~1.7 MB) is above the edge's 1 MB threshold, so it goes out chunk by chunk.
  const bundlePath = join(dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json')), 'swagger-ui-bundle.js');
  const expected = readFileSync(bundlePath);
  const sha = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
  t.ok(expected.byteLength > MB, 'the fixture is large enough to take the chunked path');

  t.test('to a client reading at full speed', async (t) => {
    const res = await server.request('/docs/assets/swagger-ui-bundle.js', { key: null });
    t.equal(res.status, 200);
    const body = new Uint8Array(await res.arrayBuffer());
    t.equal(body.byteLength, expected.byteLength);
    t.equal(sha(body), sha(expected));
  });

  t.test('to a client that stalls before reading (backpressure)', async (t) => {
    const { head, body } = await readAfterStall(server.port, 'GET /docs/assets/swagger-ui-bundle.js HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n', 300);
    t.match(head, /^HTTP\/1\.1 200/);
    t.equal(body.byteLength, expected.byteLength);
    t.equal(sha(body), sha(expected));
  });

  t.test('the OpenAPI document parses whole', async (t) => {
    const res = await server.request('/openapi.json', { key: null });
    const text = await res.text();
    t.equal(Number(res.headers.get('content-length')), Buffer.byteLength(text));
    t.doesNotThrow(() => JSON.parse(text));
  });
});
