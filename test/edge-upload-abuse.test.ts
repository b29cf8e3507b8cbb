/**
 * Uploads that are not well-formed, through the real edge on every adapter that can serve here: a multipart body
 * without its closing boundary (once enough to end the process through busboy's file stream), a body that stops
 * arriving mid-part, an anonymous upload (refused before its body is read), and 1,000 unfinished uploads at once,
 * which must leave no descriptor, partial file or memory behind.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import t from 'tap';
import { SERVABLE_ADAPTERS } from './support/adapters.js';
import { createFlow } from './support/flow-helpers.js';
import { createKb } from './support/knowledge.js';
import { echoFlow } from './support/langflow-json.js';
import { awaitRaw, head, openFds, openRaw, rawRequest } from './support/raw-http.js';
import { startTestServer, type TestServer } from './support/server.js';

const FLOW_FILE = '{"name":"x","data":{"nodes":[],"edges":[]}}';
/** The body that once ended the process: one part, and no closing boundary. */
const UNTERMINATED = `--XB\r\nContent-Disposition: form-data; name="file"; filename="a.json"\r\nContent-Type: application/json\r\n\r\n${FLOW_FILE}\r\n`;
const MULTIPART = 'multipart/form-data; boundary=XB';

function uploadRoutes(flowId: string): string[] {
  return ['/api/v1/flows/upload/', '/api/v1/projects/upload/', '/api/v2/files', `/api/v1/files/upload/${flowId}`, '/api/v1/knowledge_bases/kb_one/ingest'];
}

const collectGarbage = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/** Every file under the data dir's files folder: a partial upload left behind would show here. */
function storedFiles(server: TestServer): string[] {
  const dir = join(server.dataDir, 'files');
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as { isFile(): boolean; name: string }[]).filter((e) => e.isFile()).map((e) => e.name).sort();
}

for (const adapter of SERVABLE_ADAPTERS) {
  t.test(`${adapter}: bad uploads`, async (t) => {
    const server = await startTestServer({ HTTP_SERVER: adapter, HTTP_IDLE_TIMEOUT_SECONDS: '1' });
    t.teardown(() => server.close());
    const port = server.port;
    const flowId = (await createFlow(server, echoFlow('Upload target')))['id'] as string;
    t.equal((await createKb(server, 'kb_one')).status, 201, 'a knowledge base to ingest into');
    const key = { 'x-api-key': server.apiKey, 'content-type': MULTIPART };
    const before = storedFiles(server);

    t.test('an unterminated multipart body is a 400 naming what is wrong, on every upload route', async (t) => {
      for (const path of uploadRoutes(flowId)) {
        const answer = await rawRequest(port, head('POST', path, { ...key, 'content-length': Buffer.byteLength(UNTERMINATED) }) + UNTERMINATED, 5000, false);
        t.ok(answer.status === 400 || answer.status === 422, `${path}: ${answer.status}`);
        t.match(answer.text, /Unexpected end of form/, `${path}: the answer says the form ended early`);
        t.equal((await server.request('/health')).status, 200, `${path}: the service answers on`);
      }
      const flows = await rawRequest(port, head('POST', '/api/v1/flows/upload/', { ...key, 'content-length': Buffer.byteLength(UNTERMINATED) }) + UNTERMINATED, 5000, false);
      t.equal(flows.status, 400, 'the flow upload: 400, as Langflow answers a form it cannot parse');
      t.match(flows.text, /"detail":"Invalid multipart body: Unexpected end of form"/);
      t.same(storedFiles(server), before, 'no partial file is left');
    });

    t.test('a body that stops arriving mid-part is abandoned after the idle timeout, its partial file removed', async (t) => {
      for (const path of uploadRoutes(flowId)) {
        const text = head('POST', path, { ...key, 'content-length': 100_000 }) + UNTERMINATED;
        const answer = await rawRequest(port, text, 8000);
        t.equal(answer.status, 408, `${path}: 408`);
        t.match(answer.text, /The request body stopped arriving for 1 s/);
        t.ok(answer.closed && answer.ms < 4000, `${path}: closed after ${Math.round(answer.ms)} ms`);
      }
      t.same(storedFiles(server), before, 'no partial file is left');
      t.equal((await server.request('/health')).status, 200);
    });

    t.test('an anonymous upload is refused before its body is read', async (t) => {
      for (const path of uploadRoutes(flowId)) {
        // 900 KB announced, 1 KB sent: an answer now can only come from the head.
        const text = head('POST', path, { 'content-type': MULTIPART, 'content-length': 900_000 }) + UNTERMINATED.padEnd(1024, 'x');
        const answer = await rawRequest(port, text, 5000);
        t.ok(answer.status === 401 || answer.status === 403, `${path}: ${answer.status}`);
        t.ok(answer.closed, `${path}: the connection is closed rather than the rest read`);
        t.ok(answer.ms < 900, `${path}: answered in ${Math.round(answer.ms)} ms, before any idle timeout`);
      }
    });

    t.test('1,000 unfinished uploads at once leave no descriptors, files or memory behind', async (t) => {
      collectGarbage();
      const fdsBefore = openFds();
      const heapBefore = process.memoryUsage().heapUsed;
      const routes = ['/api/v2/files', '/api/v1/flows/upload/'];
      const sockets = [];
      for (let batch = 0; batch < 10; batch++) {
        sockets.push(...(await Promise.all(Array.from({ length: 100 }, (_, i) => openRaw(port, head('POST', routes[i % 2], { ...key, 'content-length': 50_000 }) + UNTERMINATED)))));
      }
      const fdsDuring = openFds();
      const answers = await Promise.all(sockets.map((socket) => awaitRaw(socket, 20_000)));
      t.equal(answers.filter((a) => a.closed).length, 1000, 'the server closed every one');
      t.equal(answers.filter((a) => a.status === 408).length, 1000, 'each answered 408');
      collectGarbage();
      const fdsAfter = openFds();
      const heapAfter = process.memoryUsage().heapUsed;
      t.comment(`${adapter}: open fds ${fdsBefore} before, ${fdsDuring} during, ${fdsAfter} after; heap ${(heapBefore / 1048576).toFixed(1)} MB before, ${(heapAfter / 1048576).toFixed(1)} MB after; rss ${(process.memoryUsage().rss / 1048576).toFixed(0)} MB`);
      t.ok(fdsDuring > fdsBefore + 1000, 'the uploads held descriptors while open');
      t.ok(fdsAfter <= fdsBefore + 5, `descriptors back to ${fdsAfter} (from ${fdsBefore})`);
      t.ok(heapAfter - heapBefore < 20 * 1048576, `heap grew ${((heapAfter - heapBefore) / 1048576).toFixed(1)} MB`);
      t.same(storedFiles(server), before, 'no partial file is left');
      t.equal((await server.request('/health')).status, 200);
    });
  });
}
