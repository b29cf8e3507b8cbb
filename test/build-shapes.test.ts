/** Langflow's shapes the build events are made of, on their own: elapsed time wording, results of each value kind. */
import t from 'tap';
import { builtResult, formatElapsed } from '../src/langflow/vertex-build.js';
import { createMessage } from '../src/values/message.js';

t.test("formatElapsed words durations as Langflow's format_elapsed_time", async (t) => {
  t.equal(formatElapsed(0.0151), '15 ms');
  t.equal(formatElapsed(1), '1 second');
  t.equal(formatElapsed(2.345), '2.3 seconds');
  t.equal(formatElapsed(61), '1 minute, 1 second');
  t.equal(formatElapsed(150.25), '2 minutes, 30.3 seconds');
});

t.test('builtResult: a Message, a plain value and an output left unset (an unchosen branch)', async (t) => {
  const result = builtResult({ message: createMessage({ text: 'hi', sender: 'User' }), count: 3, skipped: undefined }, 250);
  t.same(Object.keys(result.outputs), ['message', 'count'], 'an unset output is not reported');
  t.same(result.outputs.message, { message: 'hi', type: 'text' });
  t.same(result.outputs.count, { message: 3, type: 'object' });
  t.match(result.results.message, { text: 'hi', sender: 'User', text_key: 'text' });
  t.same(result.artifacts.message, { repr: 'hi', raw: 'hi', type: 'text' });
  t.same(result.logs, { message: [], count: [] });
  t.equal(result.timedelta, 0.25);
  t.equal(result.duration, '250 ms');
  t.same(result.message, result.artifacts, "Langflow's ResultData repeats the artifacts as `message`");
});
