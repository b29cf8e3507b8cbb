/**
 * A run's log on its owner, mirrored to JetStream: local watchers get each entry at once, another instance reads
 * the same entries (sequence numbers, data) from the stream, and `flushed` tells when the stream has them all.
 */
import t from 'tap';
import { MirroredLog } from '../src/cluster/mirrored-log.js';
import { RunLog, type EntryMaker } from '../src/runs/run-log.js';
import { clusterNames } from '../src/cluster/cluster-names.js';
import { freshRunLogs, natsConnection, oneTo, quietLogger, RecordingWatcher, uniqueClusterName } from './support/nats.js';

t.test('local watchers at once, other instances from the stream', async (t) => {
  const names = clusterNames(uniqueClusterName());
  const owner = await freshRunLogs(t, undefined, names);
  const log = new MirroredLog(owner.writer('mirrored'), quietLogger);
  const local = new RecordingWatcher();
  t.teardown(log.watch(0, local));

  const first = log.append('token', { chunk: 'a' });
  t.same(first, { seq: 1, event: 'token', data: { chunk: 'a' } }, 'the entry the local log made');
  t.same(local.seqs, [1], 'a local watcher has it before append returns');
  const data = { chunk: 'b', big: 'x'.repeat(1000) };
  log.append('token', data, JSON.stringify(data));
  log.append('end', null);
  t.equal(log.length, 3);
  log.end();
  t.equal(local.ends, 1, 'the local log ends at once');
  await log.flushed();

  const elsewhere = await freshRunLogs(t, undefined, names);
  const read = await elsewhere.readAll('mirrored');
  t.same(read.entries, log.events, 'the stream holds what the local log holds');
  t.equal(read.ended, true);
});

t.test('retention and entry maker are the local log\'s', async (t) => {
  const logs = await freshRunLogs(t);
  const withText: EntryMaker = (seq, event, data, dataText) => Object.assign({ seq, event, data }, { text: dataText ?? JSON.stringify(data) });
  const log = new MirroredLog(logs.writer('made'), quietLogger, 'until-watched', withText);
  const reference = new RunLog('until-watched', withText);
  for (const target of [log, reference]) {
    target.append('token', 'one');
    target.watch(0, new RecordingWatcher());
    target.append('token', 'two');
  }
  t.same(log.events, reference.events, 'the same entries kept as a plain RunLog keeps');
  t.same(log.events, [], 'until watched, then no more');
  log.end();
  await log.flushed();
  const watcher = new RecordingWatcher();
  t.teardown(logs.watch('made', 0, watcher));
  await watcher.ended();
  t.same(watcher.entries, [{ seq: 1, event: 'token', data: 'one' }, { seq: 2, event: 'token', data: 'two' }], 'the stream has every entry, without the maker\'s extras');
});

t.test('flushed fails when the stream could not store the log', async (t) => {
  // The stream is deleted at the end through a connection of its own; the writer's connection is closed early.
  const names = clusterNames(uniqueClusterName());
  await freshRunLogs(t, undefined, names);
  const nc = await natsConnection(t);
  const logs = await freshRunLogs(t, nc, names);
  const log = new MirroredLog(logs.writer('lost'), quietLogger);
  const flushed = log.flushed();
  await nc.close();
  log.append('token', 'never stored');
  log.end();
  await t.rejects(flushed, 'the failure reaches whoever awaits flushed');
  t.same(log.events.map((e) => e.seq), oneTo(1), 'the local log is not affected');
});
