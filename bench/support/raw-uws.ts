/**
 * The baseline: a bare uWS server doing the least possible work (GET answers a fixed JSON, POST echoes its body).
 * Run as its own process so it gets the same CPU share the service gets.
 */
import { createRequire } from 'node:module';
import type * as UWS from 'uWebSockets.js';

const uws: typeof UWS = createRequire(import.meta.url)('uWebSockets.js');
const app = uws.App();

app.get('/*', (res) => {
  res.cork(() => res.writeHeader('content-type', 'application/json').end('{"status":"ok"}'));
});

app.post('/*', (res) => {
  const chunks: Buffer[] = [];
  res.onAborted(() => {});
  res.onData((chunk, isLast) => {
    chunks.push(Buffer.from(chunk.slice(0)));
    if (isLast) res.cork(() => res.writeHeader('content-type', 'application/json').end(Buffer.concat(chunks)));
  });
});

app.listen('127.0.0.1', 0, (token) => {
  if (!token) process.exit(1);
  process.stdout.write(`listening on http://127.0.0.1:${uws.us_socket_local_port(token)}\n`);
});
