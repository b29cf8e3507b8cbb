/**
 * The floor for a service between a client and a model: a bare uWS server that forwards each POST to the model
 * server over node:http (keep-alive) and writes the model's chunks back as they arrive, with no parsing, routing,
 * auth or engine. What it adds to the first token is what the extra hop alone costs on this machine (two more
 * sockets and processes in the path); whatever a real service adds beyond it is its own work. Runs as its own
 * process (this file is also its script), as the service does.
 */
import { request, Agent } from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as UWS from 'uWebSockets.js';
import { startProcess, type ServerProcess } from './processes.js';

function listen(modelBaseURL: string): void {
  const uws: typeof UWS = createRequire(import.meta.url)('uWebSockets.js');
  const target = new URL(`${modelBaseURL}/chat/completions`);
  const agent = new Agent({ keepAlive: true });
  const app = uws.App();
  app.post('/*', (res) => {
    let gone = false;
    res.onAborted(() => (gone = true));
    const chunks: Buffer[] = [];
    res.onData((chunk, isLast) => {
      chunks.push(Buffer.from(chunk.slice(0)));
      if (!isLast) return;
      const upstream = request(target, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (reply) => {
        if (!gone) res.cork(() => res.writeStatus(String(reply.statusCode)).writeHeader('content-type', 'text/event-stream'));
        reply.on('data', (data: Buffer) => {
          if (!gone) res.cork(() => res.write(data));
        });
        reply.on('end', () => {
          if (!gone) res.cork(() => res.end());
        });
      });
      upstream.end(Buffer.concat(chunks));
    });
  });
  app.listen('127.0.0.1', 0, (token) => {
    if (!token) process.exit(1);
    process.stdout.write(`listening on http://127.0.0.1:${uws.us_socket_local_port(token)}\n`);
  });
}

/** Starts the proxy in a child process, forwarding to `modelBaseURL` (the OPENAI_BASE_URL form, `.../v1`). */
export function startModelProxy(modelBaseURL: string): Promise<ServerProcess> {
  return startProcess(fileURLToPath(import.meta.url), [modelBaseURL]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) listen(process.argv[2]);
