/**
 * NATS restarting in the middle of a run (its own server here, stopped with SIGTERM and started again on the same
 * port and store): the writer goes on appending throughout, a watcher follows throughout. The watcher must end
 * with exactly what the stream stored, in order, nothing repeated, and the stream must have every entry: the writer
 * holds what is appended while the server is away and sends it once it is back. The figures are reported.
 */
import type { NatsConnection } from '@nats-io/transport-node';
import t from 'tap';
import { freshRunLogs, natsConnection, ownNatsServer, RecordingWatcher } from './support/nats.js';
import { within } from '../test/support/within.js';

const entry = (seq: number) => ({ seq, event: 'token', data: { chunk: `token ${seq}` } });

/** Resolves at the connection's next status of this type. */
async function nextStatus(nc: NatsConnection, type: 'disconnect' | 'reconnect'): Promise<void> {
  for await (const status of nc.status()) if (status.type === type) return;
}

t.test('a watcher following across a NATS restart misses nothing stored and repeats nothing', async (t) => {
  const server = await ownNatsServer(t);
  const nc = await natsConnection(t, server.url);
  const logs = await freshRunLogs(t, nc);
  const watcher = new RecordingWatcher();
  t.teardown(logs.watch('across', 0, watcher));
  const writer = logs.writer('across');
  let appended = 0;
  const appendSome = (count: number) => {
    for (let i = 0; i < count; i++) writer.append(entry(++appended));
  };

  appendSome(300);
  await watcher.received(300);
  // From here on the writer appends a few entries every few milliseconds, whatever the server is doing.
  const trickle = setInterval(() => appendSome(3), 2);
  t.teardown(() => clearInterval(trickle));
  await watcher.received(600);

  const disconnected = nextStatus(nc, 'disconnect');
  await server.stop();
  await within(disconnected, 'the client noticing the server gone');
  const seenBeforeStop = watcher.entries.length;
  const reconnected = nextStatus(nc, 'reconnect');
  await server.start();
  await within(reconnected, 'the client reconnecting', 30_000);
  const appendedAtReconnect = appended;
  // The watcher gets going again: it receives entries appended after the server came back.
  await watcher.received(appendedAtReconnect + 1, 30_000);
  clearInterval(trickle);
  appendSome(100);
  const failure = await writer.end().then(() => undefined, (error: Error) => error);
  await watcher.ended(30_000);

  const stored = await logs.readAll('across');
  const seqs = watcher.seqs;
  t.ok(seqs.every((seq, i) => i === 0 || seq > seqs[i - 1]), 'the watcher got entries in order, none twice');
  t.same(watcher.entries, stored.entries, 'the watcher got exactly what the stream stored: no gap');
  t.equal(watcher.ends, 1, 'one end');
  t.equal(stored.ended, true, 'the end marker, sent after the restart, is stored');
  const lost = appended - stored.entries.length;
  const holes = stored.entries.filter((e, i) => e.seq !== (i === 0 ? 1 : stored.entries[i - 1].seq + 1)).length;
  t.comment(`appended ${appended} entries (${seenBeforeStop} seen before the stop, ${appendedAtReconnect} appended by the reconnect); stored ${stored.entries.length}; lost across the restart: ${lost}${failure ? ` (writer.end: ${failure.message})` : ''}; holes in the stored sequence: ${holes}`);
  t.equal(failure, undefined, 'the writer\'s end succeeds: every entry stored');
  t.equal(lost, 0, 'nothing appended while the server was away is lost');
  t.equal(holes, 0, 'the stored log has no hole');
});
