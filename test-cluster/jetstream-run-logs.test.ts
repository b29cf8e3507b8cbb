/**
 * Runs' logs on JetStream: the owner's pipelined appends, read whole or followed from any sequence number, by a
 * watcher attached before, during or after the run; an entry sent twice is stored once; ten thousand entries
 * replay complete.
 */
import { jetstreamManager } from '@nats-io/jetstream';
import t from 'tap';
import { clusterNames } from '../src/cluster/cluster-names.js';
import { JetStreamRunLogs } from '../src/cluster/jetstream-run-logs.js';
import { freshRunLogs, natsConnection, oneTo, quietLogger, RecordingWatcher, runUnderway, uniqueClusterName } from './support/nats.js';

const entry = (seq: number) => ({ seq, event: 'token', data: { chunk: `token ${seq}`, seq } });

t.test('pipelined appends, watched from the start and from the middle', async (t) => {
  const logs = await freshRunLogs(t);
  const before = new RecordingWatcher();
  t.teardown(logs.watch('run-1', 0, before));

  const count = 2_000;
  const writer = logs.writer('run-1');
  const started = performance.now();
  for (let seq = 1; seq <= count; seq++) writer.append(entry(seq));
  await writer.end();
  const seconds = (performance.now() - started) / 1000;
  t.comment(`${count} pipelined appends acknowledged in ${(seconds * 1000).toFixed(0)} ms (${Math.round(count / seconds)} entries/s)`);

  await before.ended();
  t.same(before.seqs, oneTo(count), 'a watcher attached before the run gets every entry once, in order');
  t.same(before.entries[41], entry(42), 'entries arrive as appended');

  const fromMiddle = new RecordingWatcher();
  t.teardown(logs.watch('run-1', 1_500, fromMiddle));
  await fromMiddle.ended();
  t.same(fromMiddle.seqs, oneTo(count).slice(1_500), 'a watcher from 1500 gets 1501 onwards, no gap, no repeat');

  const read = await logs.readAll('run-1');
  t.equal(read.ended, true, 'the log is ended');
  t.same(read.entries.map((e) => e.seq), oneTo(count), 'readAll has every entry in order');
  t.equal(before.ends + fromMiddle.ends, 2, 'each watcher was told of the end once');
});

t.test('a watcher attached mid-run replays, then follows live', async (t) => {
  const logs = await freshRunLogs(t);
  const { writer, watcher } = await runUnderway(t, logs, 'live', 50, entry);
  t.equal(watcher.ends, 0, 'not ended while the run goes on');
  for (let seq = 51; seq <= 80; seq++) writer.append(entry(seq));
  await watcher.received(80);
  t.equal(watcher.ends, 0, 'still following');
  await writer.end();
  await watcher.ended();
  t.same(watcher.seqs, oneTo(80), 'replayed and live entries, each once, in order');
  t.equal(watcher.ends, 1, 'one end');
});

t.test('a watcher stopped early gets nothing more', async (t) => {
  const logs = await freshRunLogs(t);
  const writer = logs.writer('stopped');
  const stoppedEarly = new RecordingWatcher();
  const stop = logs.watch('stopped', 0, stoppedEarly);
  const other = new RecordingWatcher();
  t.teardown(logs.watch('stopped', 0, other));
  writer.append(entry(1));
  await stoppedEarly.received(1);
  stop();
  writer.append(entry(2));
  await writer.end();
  await other.ended();
  t.same(stoppedEarly.seqs, [1], 'only what came before the stop');
  t.equal(stoppedEarly.ends, 0, 'no end after the stop');
});

t.test('an entry sent twice is stored once; data text is used as given', async (t) => {
  const nc = await natsConnection(t);
  const names = clusterNames(uniqueClusterName());
  const logs = await freshRunLogs(t, nc, names);
  const writer = logs.writer('twice');
  writer.append(entry(1), JSON.stringify(entry(1).data));
  writer.append({ seq: 1, event: 'token', data: 'a second copy' });
  writer.append(entry(2));
  // Another writer of the same run sending it again (an owner retrying after a reconnect).
  const again = logs.writer('twice');
  again.append({ seq: 2, event: 'token', data: 'a second copy' });
  await Promise.all([writer.end(), again.end()]);

  const jsm = await jetstreamManager(nc);
  const info = await jsm.streams.info(names.stream);
  t.equal(info.state.messages, 3, 'the server stored two entries and one end marker');
  const read = await logs.readAll('twice');
  t.same(read.entries, [entry(1), entry(2)], 'the first copy of each is the one kept');
});

t.test('an entry without data reads back without it; an unknown run reads empty', async (t) => {
  const logs = await freshRunLogs(t);
  const writer = logs.writer('bare');
  writer.append({ seq: 1, event: 'end', data: undefined });
  await writer.end();
  t.same(await logs.readAll('bare'), { entries: [{ seq: 1, event: 'end' }], ended: true });
  t.same(await logs.readAll('never-written'), { entries: [], ended: false });
});

t.test('run ids that are not subject tokens stay apart', async (t) => {
  const logs = await freshRunLogs(t);
  const dotted = logs.writer('a.b');
  const wild = logs.writer('a.*');
  dotted.append({ seq: 1, event: 'token', data: 'dotted' });
  wild.append({ seq: 1, event: 'token', data: 'wild' });
  await Promise.all([dotted.end(), wild.end()]);
  t.same((await logs.readAll('a.b')).entries.map((e) => e.data), ['dotted']);
  t.same((await logs.readAll('a.*')).entries.map((e) => e.data), ['wild']);
});

t.test('ten thousand entries replay complete', async (t) => {
  const logs = await freshRunLogs(t);
  const count = 10_000;
  const writer = logs.writer('long');
  const published = performance.now();
  for (let seq = 1; seq <= count; seq++) writer.append(entry(seq));
  await writer.end();
  t.comment(`${count} pipelined appends acknowledged in ${(performance.now() - published).toFixed(0)} ms`);

  const watcher = new RecordingWatcher();
  const replayed = performance.now();
  t.teardown(logs.watch('long', 0, watcher));
  await watcher.ended(60_000);
  t.comment(`${count} entries replayed to a watcher in ${(performance.now() - replayed).toFixed(0)} ms`);
  t.same(watcher.seqs, oneTo(count), 'every entry once, in order');

  const read = performance.now();
  const all = await logs.readAll('long');
  t.comment(`readAll of ${count} entries in ${(performance.now() - read).toFixed(0)} ms`);
  t.equal(all.entries.length, count, 'readAll has them all');
  t.equal(all.entries.at(-1)?.seq, count, 'up to the last');
});

t.test('every instance opens the stream; a later one with another age limit updates it', async (t) => {
  const nc = await natsConnection(t);
  const names = clusterNames(uniqueClusterName());
  const first = await freshRunLogs(t, nc, names);
  const writer = first.writer('kept');
  writer.append(entry(1));
  await writer.end();
  await JetStreamRunLogs.open(nc, names, { maxAgeMs: 30 * 60_000, logger: quietLogger });
  const info = await (await jetstreamManager(nc)).streams.info(names.stream);
  t.equal(info.config.max_age, 30 * 60 * 1e9, 'the age limit is the latest instance\'s');
  t.equal(info.config.duplicate_window, 2 * 60 * 1e9, 'duplicates are recognised for two minutes');
  t.same(info.config.subjects, [names.runSubjects]);
  t.same((await first.readAll('kept')).entries, [entry(1)], 'what was stored stays');
});
