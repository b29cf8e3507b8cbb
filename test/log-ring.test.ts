/** The in-memory ring behind /logs: bounded, unique increasing timestamps, Langflow's before/after windows. */
import t from 'tap';
import { LogRing } from '../src/observability/log-ring.js';

t.test('keeps the newest lines under unique, increasing timestamps', async (t) => {
  const ring = new LogRing(3);
  for (const line of ['a\n', 'b\n', 'c\n', 'd\n', 'e\n']) ring.write(line);
  const kept = ring.lastLines(10);
  t.same(Object.values(kept), ['c', 'd', 'e'], 'the oldest lines went; the trailing newline is not kept');
  const times = Object.keys(kept).map(Number);
  t.ok(times[0] < times[1] && times[1] < times[2], 'lines written in one millisecond still get distinct keys');

  t.same(Object.values(ring.linesAfter(times[1], 5)), ['d', 'e']);
  t.same(Object.values(ring.linesBefore(times[2], 1)), ['d']);
  t.same(Object.values(ring.linesBefore(times[2] + 1000, 2)), ['d', 'e'], 'a timestamp past the last line: the last lines');
  t.same(ring.linesAfter(times[2] + 1, 5), {});
});

t.test('followers see new lines until they leave or the ring ends them', async (t) => {
  const ring = new LogRing(10);
  const seen: string[] = [];
  let ended = false;
  const leave = ring.follow((_timestamp, line) => seen.push(line), () => (ended = true));
  ring.write('one');
  ring.endFollowers();
  ring.write('two');
  t.same(seen, ['one']);
  t.ok(ended);
  leave();
});
