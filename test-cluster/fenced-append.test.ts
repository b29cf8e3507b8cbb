/**
 * A second writer finishing a run (a sweeper, its owner dead): its entries continue the log's sequence, it is
 * refused ('conflict') when another writer appended since it read the log, and an ended log stays ended.
 */
import t from 'tap';
import { freshRunLogs, oneTo, runUnderway } from './support/nats.js';

const token = (seq: number) => ({ seq, event: 'token', data: `token ${seq}` });
const failure = [{ seq: 0, event: 'error', data: 'owner lost' }, { seq: 0, event: 'end', data: null }];

t.test('continues after the last entry and ends the log', async (t) => {
  const logs = await freshRunLogs(t);
  const { writer: owner, watcher } = await runUnderway(t, logs, 'orphan', 10, token);

  t.equal(await logs.appendFenced('orphan', failure, true), 'appended');
  await watcher.ended();
  t.same(watcher.seqs, oneTo(12), 'renumbered to follow the owner\'s last entry');
  t.same(watcher.entries.slice(10).map((e) => e.event), ['error', 'end']);

  // The owner was not dead after all: what it sends now is not part of the log.
  owner.append(token(11));
  owner.append(token(12));
  owner.append(token(13));
  await owner.end();
  const read = await logs.readAll('orphan');
  t.same(read.entries.map((e) => e.event), [...Array(10).fill('token'), 'error', 'end'], 'the late owner\'s entries are not read');
  t.equal(read.ended, true);
  t.equal(watcher.ends, 1, 'the watcher was told of the end once');
  t.equal(await logs.appendFenced('orphan', failure, true), 'ended-already');
});

t.test('an empty log starts at 1', async (t) => {
  const logs = await freshRunLogs(t);
  t.equal(await logs.appendFenced('never-started', failure, false), 'appended');
  t.same((await logs.readAll('never-started')).entries.map((e) => e.seq), [1, 2]);
  t.equal((await logs.readAll('never-started')).ended, false, 'not ended unless asked');
});

t.test('two writers taking over at once: one wins, the other is told and retries', async (t) => {
  const logs = await freshRunLogs(t);
  const { watcher } = await runUnderway(t, logs, 'contested', 5, token);

  const batch = (who: string) => Array.from({ length: 20 }, (_, i) => ({ seq: 0, event: who, data: i }));
  const outcomes = await Promise.all([logs.appendFenced('contested', batch('a'), false), logs.appendFenced('contested', batch('b'), false)]);
  t.comment(`outcomes of two concurrent takeovers: ${outcomes.join(', ')}`);
  t.ok(outcomes.includes('appended'), 'at least one appended');
  const read = await logs.readAll('contested');
  t.same(read.entries.map((e) => e.seq), oneTo(read.entries.length), 'the log has no gap and no repeat');
  const writers = read.entries.slice(5).map((e) => e.event);
  // Each writer's entries form one block: a fenced writer never interleaves with another.
  const blocks = writers.filter((who, i) => i === 0 || writers[i - 1] !== who);
  t.equal(new Set(blocks).size, blocks.length, `each writer's entries are one block (${blocks.join(', ')})`);
  for (const [i, who] of ['a', 'b'].entries()) {
    const stored = writers.filter((w) => w === who).length;
    if (outcomes[i] === 'appended') t.equal(stored, 20, `${who} appended all of its entries`);
  }

  // A writer told of a conflict reads again and retries, as the caller does.
  for (const [i, who] of ['a', 'b'].entries()) {
    if (outcomes[i] === 'conflict') t.equal(await logs.appendFenced('contested', batch(who), false), 'appended', `${who}'s retry appends`);
  }
  t.equal(await logs.appendFenced('contested', [], true), 'appended', 'an end alone');
  await watcher.ended();
  t.same(watcher.seqs, oneTo(45), 'the watcher saw one unbroken log: the owner\'s five and both batches');
  const retried = await logs.appendFenced('contested', batch('c'), true);
  t.equal(retried, 'ended-already');
});

t.test('a live owner appending while a takeover reads: conflict or a clean continuation', async (t) => {
  const logs = await freshRunLogs(t);
  const owner = logs.writer('racing');
  for (let seq = 1; seq <= 200; seq++) owner.append(token(seq));
  let outcome = await logs.appendFenced('racing', failure, true);
  let attempts = 1;
  const outcomes = [outcome];
  while (outcome === 'conflict') {
    outcome = await logs.appendFenced('racing', failure, true);
    outcomes.push(outcome);
    attempts++;
  }
  t.comment(`takeover outcomes while the owner appended: ${outcomes.join(', ')}`);
  t.equal(outcome, 'appended');
  await owner.end().catch(() => {});
  const read = await logs.readAll('racing');
  t.same(read.entries.map((e) => e.seq), oneTo(read.entries.length), 'no gap, no repeat');
  t.same(read.entries.slice(-2).map((e) => e.event), ['error', 'end'], 'the takeover\'s entries close the log');
  t.ok(attempts >= 1);
});
