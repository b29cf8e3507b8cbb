/**
 * Connections that hold the service without using it, on every adapter that can serve here: one that never sends
 * a byte, one kept alive after its answer (both closed: node:http after FLOWSVC_HTTP_IDLE_TIMEOUT_SECONDS and
 * FLOWSVC_HTTP_KEEP_ALIVE_SECONDS, uWS after its own fixed 10 s), headers that trickle in (dropped after
 * FLOWSVC_HTTP_HEADERS_TIMEOUT_SECONDS, default 60), while a long answer in progress is not cut; a flow
 * file past the JSON limit refused before it is buffered; and HTTP/1.0 answered by the adapter `auto` picks.
 */
import t from 'tap';
import { chooseAdapter, uwsUnanswered } from '../src/edge/adapter-choice.js';
import { uwsIsNative } from '../src/edge/uws-native.js';
import { SERVABLE_ADAPTERS } from './support/adapters.js';
import { awaitRaw, head, openRaw, rawRequest } from './support/raw-http.js';
import { startTestServer } from './support/server.js';

/** uWS closes idle connections after its fixed 10 s, on its 4 s timer ticks. */
const UWS_IDLE_MS = 10_000 + 4_000;

for (const adapter of SERVABLE_ADAPTERS) {
  t.test(`${adapter}: idle connections are closed, busy ones are not`, async (t) => {
    const server = await startTestServer({ HTTP_SERVER: adapter, HTTP_IDLE_TIMEOUT_SECONDS: '1', HTTP_KEEP_ALIVE_SECONDS: '1', HTTP_HEADERS_TIMEOUT_SECONDS: '1', MAX_JSON_BODY_MB: '1' });
    t.teardown(() => server.close());
    const bound = adapter === 'node' ? 3000 : UWS_IDLE_MS;
    const silent = await openRaw(server.port, '');
    const keptAlive = await openRaw(server.port, head('GET', '/health', {}));
    const stream = await openRaw(server.port, head('GET', '/api/v1/mcp/sse', { 'x-api-key': server.apiKey }));
    // Headers a byte every 200 ms: never idle, but never done (node:http drops them after FLOWSVC_HTTP_HEADERS_TIMEOUT_SECONDS).
    const trickle = await openRaw(server.port, 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const drip = setInterval(() => trickle.destroyed || trickle.write('X'), 200);
    t.teardown(() => clearInterval(drip));
    const [silentEnd, keptEnd, streamEnd, trickleEnd] = await Promise.all([awaitRaw(silent, bound + 5000), awaitRaw(keptAlive, bound + 5000), awaitRaw(stream, bound + 2000), awaitRaw(trickle, bound + 5000)]);
    clearInterval(drip);
    t.ok(trickleEnd.closed && trickleEnd.ms < bound + 1000, `headers trickling in: dropped after ${Math.round(trickleEnd.ms)} ms`);
    t.notMatch(trickleEnd.text, /^HTTP\/1\.1 200/, 'and never served');
    t.ok(silentEnd.closed && silentEnd.ms < bound, `a connection that sends nothing: closed after ${Math.round(silentEnd.ms)} ms`);
    t.equal(keptEnd.status, 200, 'the kept-alive connection got its answer');
    t.ok(keptEnd.closed && keptEnd.ms < bound, `then closed after ${Math.round(keptEnd.ms)} ms idle`);
    t.notOk(streamEnd.closed, `an event stream in progress stays open past the idle bound (${Math.round(streamEnd.ms)} ms)`);
    t.match(streamEnd.text, /^HTTP\/1\.1 200/, 'the stream had opened');
  });

  t.test(`${adapter}: a flow file past the JSON limit is refused before it is read`, async (t) => {
    const server = await startTestServer({ HTTP_SERVER: adapter, MAX_JSON_BODY_MB: '1' });
    t.teardown(() => server.close());
    for (const path of ['/api/v1/flows/upload/', '/api/v1/projects/upload/']) {
      // 900 MB announced, nothing sent: the answer comes from the head alone. (uWS closes requests announcing
      // 1,000,000,000 bytes or more without an answer: README, FLOWSVC_HTTP_SERVER.)
      const declared = await rawRequest(server.port, head('POST', path, { 'x-api-key': server.apiKey, 'content-type': 'multipart/form-data; boundary=XB', 'content-length': 900 * 1048576 }));
      t.equal(declared.status, 413, `${path}, declared: 413`);
      t.match(declared.text, /Maximum allowed is 1MB and got 900\.0MB/);
      t.ok(declared.closed, 'the connection is closed, the body never read');
      // Chunked, no length: refused as the count passes the limit, not after the whole body is buffered.
      const socket = await openRaw(server.port, head('POST', path, { 'x-api-key': server.apiKey, 'content-type': 'multipart/form-data; boundary=XB', 'transfer-encoding': 'chunked' }));
      const answer = awaitRaw(socket, 10_000);
      const chunk = Buffer.alloc(64 * 1024, 'x');
      let sent = 0;
      while (!socket.destroyed && sent < 64 * 1048576) {
        // One chunk per turn of the event loop: the answer is read as soon as it comes, before a reset can drop it.
        if (!socket.write(Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]))) await new Promise((resolve) => socket.once('drain', resolve).once('close', resolve));
        else await new Promise((resolve) => setImmediate(resolve));
        sent += chunk.length;
      }
      const chunked = await answer;
      t.equal(chunked.status, 413, `${path}, chunked: 413`);
      t.ok(sent < 16 * 1048576, `refused after ${(sent / 1048576).toFixed(1)} MB of 64 MB sent`);
    }
    t.equal((await server.request('/health')).status, 200);
  });
}

t.test('HTTP/1.0 is answered by the adapter auto picks, and auto picks uWS only where it answers HTTP/1.0', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const answer = await rawRequest(server.port, 'GET /health HTTP/1.0\r\n\r\n', 5000);
  t.equal(answer.status, 200, `answered by ${server.adapter}`);
  t.ok(answer.closed, 'and closed, as HTTP/1.0 without keep-alive asks');
  if (uwsIsNative) {
    const unanswered = await uwsUnanswered();
    t.equal((await chooseAdapter('auto')).adapter === 'uws', unanswered.length === 0, `the loaded uWS build leaves unanswered: ${unanswered.join(', ') || 'nothing'}`);
    if (unanswered.includes('http10')) t.match((await chooseAdapter('uws')).limitation, /HTTP\/1\.0 requests .* get no answer/, 'forcing uws logs the limitation');
  }
});
