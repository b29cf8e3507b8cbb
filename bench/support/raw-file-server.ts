/**
 * The floor under the files bench: Node's own HTTP server with no parsing at all, as its own process. A POST's
 * body is piped to a file as is (no multipart, no record), a GET streams that file back. What it costs in memory
 * and time is what node:http and the disk cost, before anything of ours.
 */
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

const dir = mkdtempSync(join(tmpdir(), 'flowsvc-raw-files-'));
const stored = join(dir, 'upload.bin');
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
process.on('SIGTERM', () => process.exit(0));

const server = createServer((req, res) => {
  if (req.method === 'POST') {
    pipeline(req, createWriteStream(stored, { flush: true })).then(
      () => res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":"upload"}'),
      () => res.writeHead(500).end(),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'application/octet-stream' });
  pipeline(createReadStream(stored, { highWaterMark: 1 << 20 }), res).catch(() => res.destroy());
});

server.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`));
