/**
 * A reference point beside the raw uWS baseline: Node's own HTTP server doing the same least work (GET answers a
 * fixed JSON, POST echoes its body), as its own process, so the table shows where node:http sits between the two.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const server = createServer((req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.concat(chunks)));
});

server.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`));
