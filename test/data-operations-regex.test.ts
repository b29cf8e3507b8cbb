import t from 'tap';
import { WorkerPool } from '../src/components/data-operations/guarded-worker.js';
import { jqEngine } from '../src/components/data-operations/jq-engine.js';
import { PatternSyntaxError, toJsRegex } from '../src/components/data-operations/python-regex.js';
import { MAX_PATTERN_LENGTH, MAX_TEXT_LENGTH } from '../src/components/data-operations/regex-guard.js';
import { messageText } from './support/data-operations.js';

const CATASTROPHIC = { input_type: 'Text', operation: 'Text Replace', use_regex: true, search_pattern: '(a+)+$', replacement_text: '', text_input: `${'a'.repeat(40)}!` };

t.test('Python syntax becomes JavaScript syntax; what JavaScript lacks is refused by name', async (t) => {
  const cases: [string, string][] = [
    ['(?P<year>\\d{4})-(?P=year)', '(?<year>\\p{Nd}{4})-\\k<year>'],
    ['a(?#comment)b', 'ab'],
    ['\\Aabc\\Z', '(?<![\\s\\S])abc(?![\\s\\S])'],
    ['x{,3}', 'x{0,3}'],
    ['{literal}', '\\{literal\\}'],
    ['\\U0001F600', '\\u{1F600}'],
    ['[]a]', '[\\]a]'],
    ['\\-\\#\\ ', '-# '],
  ];
  for (const [python, js] of cases) t.equal(toJsRegex(python).source, js, python);
  t.equal(toJsRegex('(?i)abc').flags, 'iu');
  t.equal(toJsRegex('(?x) a b # c\n d').source, 'abd', 'verbose mode drops spaces and comments');
  const refused: [string, RegExp][] = [
    ['(?>a)', /atomic groups/],
    ['a++', /possessive/],
    ['a{2}+', /possessive/],
    ['(?i:a)', /inline flags are only supported at the start/],
    ['\\N{BULLET}', /named characters/],
    ['(?L)a', /locale/],
    ['[abc', /unterminated character set/],
    ['abc\\', /bad escape \(end of pattern\)/],
    ['\\q', /bad escape \\q/],
    ['(?(1)a|b)', /conditional groups/],
  ];
  for (const [pattern, message] of refused) t.throws(() => toJsRegex(pattern), { name: 'PatternSyntaxError', message }, pattern);
  t.ok(new PatternSyntaxError('x') instanceof Error);
});

t.test('a catastrophic pattern is stopped by the deadline and the next one runs', async (t) => {
  await t.rejects(messageText(CATASTROPHIC), { name: 'ComponentError', message: /^Text Replace: the regex '\(a\+\)\+\$' \(search_pattern\) was stopped: it did not finish within \d+ ms/ });
  t.equal(await messageText({ ...CATASTROPHIC, text_input: 'aaa!b' }), 'aaa!b', 'the worker was replaced and serves the next pattern');
});

t.test('a cancelled run stops its regex at once', async (t) => {
  const controller = new AbortController();
  const pending = messageText(CATASTROPHIC, { signal: controller.signal });
  setTimeout(() => controller.abort(), 50);
  await t.rejects(pending, { name: 'ComponentError', message: /was stopped: the run was cancelled/ });
  const aborted = new AbortController();
  aborted.abort();
  await t.rejects(messageText({ ...CATASTROPHIC, text_input: 'x' }, { signal: aborted.signal }), { message: /cancelled/ }, 'already cancelled');
});

t.test('sizes are bounded', async (t) => {
  await t.rejects(messageText({ ...CATASTROPHIC, search_pattern: 'a'.repeat(MAX_PATTERN_LENGTH + 1) }), { name: 'ComponentError', message: `Text Replace: the regex pattern in search_pattern is ${MAX_PATTERN_LENGTH + 1} characters long; the limit is ${MAX_PATTERN_LENGTH}` });
  await t.rejects(messageText({ input_type: 'Text', operation: 'Text Extract', extract_pattern: 'a', text_input: 'a'.repeat(MAX_TEXT_LENGTH + 1) }), { message: /Text Extract: the text is \d+ characters long; regex operations accept up to/ });
});

t.test('the worker pool: deadlines, cancellation, queueing, failures', async (t) => {
  const pool = new WorkerPool(new URL('../src/components/data-operations/sandbox.worker.js', import.meta.url), 1);
  const jq = (query: string, timeoutMs = 10_000, signal?: AbortSignal) =>
    pool.run<{ status: number; stdout: Uint8Array }>({ kind: 'jq', input: new TextEncoder().encode('{"n": 3}'), query }, { timeoutMs, signal });
  t.equal(new TextDecoder().decode((await jq('.n')).stdout), '3\n', 'a warm worker first, so the deadline below hits the loop');
  const loop = jq('until(false; .)', 300);
  const queued = jq('.n + 1');
  await t.rejects(loop, { name: 'SandboxError', reason: 'timeout' }, 'a jq program that loops forever is stopped');
  t.equal(new TextDecoder().decode((await queued).stdout), '4\n', 'the task queued behind it runs on a fresh worker');

  const controller = new AbortController();
  const cancelled = jq('until(false; .)', 10_000, controller.signal);
  const waiting = jq('.n', 10_000, controller.signal);
  controller.abort();
  await t.rejects(cancelled, { name: 'SandboxError', reason: 'aborted' });
  await t.rejects(waiting, { name: 'SandboxError', reason: 'aborted' }, 'a queued task is dropped');

  await t.rejects(pool.run({ kind: 'nonsense' }, { timeoutMs: 10_000 }), { name: 'SandboxError', reason: 'failed', message: 'unknown task kind "nonsense"' });
  const broken = new WorkerPool(new URL('./no-such-worker.js', import.meta.url), 1);
  await t.rejects(broken.run({ kind: 'jq' }, { timeoutMs: 5000 }), { name: 'SandboxError', reason: 'crashed' });
  t.equal(broken.workers, 0, 'a crashed worker is removed');
});

t.test('jq in-process: many runs, no leaked stack, the exit code untouched', async (t) => {
  const engine = await jqEngine();
  const input = new TextEncoder().encode('{"a": [1, 2, 3]}');
  for (let i = 0; i < 2000; i++) {
    const outcome = engine.run(input, i % 2 ? '.a | add' : '.a[');
    if (outcome.status !== (i % 2 ? 0 : 3)) t.fail(`run ${i} answered ${outcome.status}`);
  }
  const last = engine.run(input, '.a | map(. * 2)');
  t.equal(new TextDecoder().decode(last.stdout), '[2,4,6]\n');
  t.equal(process.exitCode, undefined, "jq's exit status does not become the process's");
});
