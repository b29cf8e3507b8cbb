/**
 * A child process's heap through its inspector (the child started with `inspectFlag`): a full GC on demand and the
 * heap's size, so memory figures taken after a load do not count the garbage it left, nor the collections it
 * happens to trigger, as what the objects under measure hold.
 */
import { createServer } from 'node:net';
import WebSocket from 'ws';

export interface InspectedHeap {
  /** Runs a full garbage collection in the child and resolves once it is done. */
  collect(): Promise<void>;
  /** Bytes of the child's JS heap in use. */
  used(): Promise<number>;
  close(): void;
}

/** A port nothing listens on now, for the child's inspector. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** NODE_OPTIONS for a child whose heap is read through `inspectHeap(port)`. */
export const inspectFlag = (port: number) => `--inspect=127.0.0.1:${port}`;

export async function inspectHeap(port: number): Promise<InspectedHeap> {
  const [target] = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const waiting = new Map<number, (result: any) => void>();
  socket.on('message', (data) => {
    const reply = JSON.parse(String(data)) as { id?: number; result?: unknown };
    if (reply.id === undefined) return;
    waiting.get(reply.id)?.(reply.result);
    waiting.delete(reply.id);
  });
  let next = 1;
  const send = (method: string) =>
    new Promise<any>((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      socket.send(JSON.stringify({ id, method }));
    });
  return {
    collect: async () => void (await send('HeapProfiler.collectGarbage')),
    used: async () => (await send('Runtime.getHeapUsage')).usedSize as number,
    close: () => socket.close(),
  };
}
