/**
 * Writes gathered per turn of the event loop for PostgreSQL (src/store/pg/tick-batch.ts): a write whose key has a
 * batch in flight waits for it and goes with the next batch, together with what gathered meanwhile; writes of other
 * keys are not held back; a refused batch is retried one write at a time.
 */
import { setImmediate as turn } from 'node:timers/promises';
import t from 'tap';
import { TickBatch } from '../src/store/pg/tick-batch.js';

interface Write {
  key: string;
  text: string;
}

/** A TickBatch whose flushes are recorded and end only when told to. */
function recordedBatches(keyed = true) {
  const sent: { items: string[]; finish: (error?: Error) => void }[] = [];
  const batch = new TickBatch<Write>(
    (items) =>
      new Promise<void>((resolve, reject) => {
        sent.push({ items: items.map((w) => w.text), finish: (error) => (error ? reject(error) : resolve()) });
      }),
    keyed ? (w) => w.key : undefined,
  );
  return { batch, sent, texts: () => sent.map((s) => s.items) };
}

t.test('a key with a batch in flight waits; its writes and later ones go together in the next batch', async (t) => {
  const { batch, sent, texts } = recordedBatches();
  const first = batch.add({ key: 's1', text: 'question' });
  await turn();
  t.same(texts(), [['question']], 'the first batch is sent');
  const later = [batch.add({ key: 's1', text: 'answer' }), batch.add({ key: 's2', text: 'other session' })];
  await turn();
  t.same(texts(), [['question'], ['other session']], "another session's write goes at once; the answer waits");
  const last = batch.add({ key: 's1', text: 'next question' });
  await turn();
  t.equal(sent.length, 2, 'still waiting');
  sent[0].finish();
  await first;
  await turn();
  t.same(texts()[2], ['answer', 'next question'], 'both waiting writes of the session go in one batch, in order');
  sent[1].finish();
  sent[2].finish();
  await Promise.all([...later, last]);
});

t.test('a refused batch is retried one write at a time, and its key stays held until the retries end', async (t) => {
  const { batch, sent, texts } = recordedBatches();
  const [a, b] = [batch.add({ key: 's1', text: 'good' }), batch.add({ key: 's1', text: 'bad' })];
  await turn();
  const after = batch.add({ key: 's1', text: 'after' });
  sent[0].finish(new Error('refused'));
  await turn();
  t.same(texts(), [['good', 'bad'], ['good']], 'retried alone, in order; the write after them still waits');
  sent[1].finish();
  await turn();
  t.same(texts()[2], ['bad']);
  sent[2].finish(new Error('a NUL in a key'));
  await t.resolves(a);
  await t.rejects(b, /a NUL in a key/, 'only the refused write fails');
  await turn();
  t.same(texts()[3], ['after'], 'the key is free once the retries have ended');
  sent[3].finish();
  await after;
});

t.test('drain waits for held writes too; without keys, batches go at once', async (t) => {
  const { batch, sent } = recordedBatches();
  batch.add({ key: 's1', text: 'one' });
  await turn();
  batch.add({ key: 's1', text: 'two' });
  let drained = false;
  const draining = batch.drain().then(() => (drained = true));
  await turn();
  t.equal(drained, false);
  sent[0].finish();
  while (sent.length < 2) await turn();
  t.equal(drained, false, 'not before the held write is written');
  sent[1].finish();
  await draining;

  const unkeyed = recordedBatches(false);
  unkeyed.batch.add({ key: 's1', text: 'one' });
  await turn();
  unkeyed.batch.add({ key: 's1', text: 'two' });
  await turn();
  t.same(unkeyed.texts(), [['one'], ['two']], 'no key: the second batch does not wait');
  unkeyed.sent.forEach((s) => s.finish());
});
