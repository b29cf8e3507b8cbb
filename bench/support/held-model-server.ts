/**
 * An OpenAI-compatible chat endpoint that holds every streamed request until `release()`, then sends `tokens`
 * content chunks: a job that stays in progress as long as the bench needs (to attach watchers), then finishes.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HeldModelServer {
  baseURL: string;
  /** Resolves once `count` requests are being held. */
  holding(count: number): Promise<void>;
  release(): void;
  close(): Promise<void>;
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-held', object: 'chat.completion.chunk', created: 0, model: 'gpt-4o-mini', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;

export async function startHeldModelServer(tokens: number): Promise<HeldModelServer> {
  let held: ServerResponse[] = [];
  let waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk({ role: 'assistant', content: '' }));
      held.push(res);
      waiters = waiters.filter((w) => (held.length >= w.count ? (w.resolve(), false) : true));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    holding: (count) => new Promise((resolve) => (held.length >= count ? resolve() : waiters.push({ count, resolve }))),
    release() {
      for (const res of held) {
        for (let i = 0; i < tokens; i++) res.write(chunk({ content: 'tok ' }));
        res.end(`${chunk({}, 'stop')}data: [DONE]\n\n`);
      }
      held = [];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
