/**
 * The run lifecycle's data: the transition table (terminal statuses are final), the failure table (every failure
 * kind has its status, HTTP status, v2 code and wording), and the event log (replay and subscribe in one step).
 */
import t from 'tap';
import { errorReply } from '../src/edge/error-reply.js';
import { VariableNotFoundError } from '../src/engine/variables.js';
import { createLogger } from '../src/logger.js';
import { failureDetail, failureError, statusOf } from '../src/runs/failure-table.js';
import type { RunFailure, RunFailureKind } from '../src/runs/run-failure.js';
import { failureOf } from '../src/runs/run-failure.js';
import { RunLog, replayFinished, type LogEntry } from '../src/runs/run-log.js';
import { Deadlines } from '../src/runs/deadlines.js';
import { advance, IllegalTransitionError, isTerminal, TRANSITIONS, type RunStatus } from '../src/runs/run-status.js';

const vertex = { vertexId: 'Calc-1', componentType: 'Calculator', displayName: 'Calculator' };

/** One failure of every kind, with what each protocol must say of it. */
const CASES: { failure: RunFailure; status: RunStatus; http: number; code: string; v1: RegExp; v2: RegExp }[] = [
  { failure: { kind: 'component', ...vertex, error: new Error('boom') }, status: 'failed', http: 500, code: 'EXECUTION_ERROR', v1: /^Error running graph: Error building Component Calculator \(Calc-1\): boom$/, v2: /^Error running component Calculator \(Calc-1\): boom$/ },
  { failure: { kind: 'missing_variable', ...vertex, error: new VariableNotFoundError('KEY') }, status: 'failed', http: 400, code: 'MISSING_VARIABLE', v1: /^Variable KEY not found/, v2: /Calculator \(Calc-1\): Variable KEY not found/ },
  { failure: { kind: 'crash', error: new Error('a bug') }, status: 'failed', http: 500, code: 'INTERNAL_SERVER_ERROR', v1: /^Internal Server Error$/, v2: /unexpected error/ },
  { failure: { kind: 'store', error: new Error('disk full') }, status: 'failed', http: 503, code: 'DATABASE_ERROR', v1: /could not be stored: disk full/, v2: /could not be stored: disk full/ },
  { failure: { kind: 'interrupted' }, status: 'failed', http: 503, code: 'JOB_INTERRUPTED', v1: /stopped while this response was running/, v2: /stopped while this job was running/ },
  { failure: { kind: 'timed_out', timeoutMs: 1500 }, status: 'timed_out', http: 408, code: 'EXECUTION_TIMEOUT', v1: /exceeded 1.5 seconds/, v2: /^Workflow execution exceeded 1.5 seconds$/ },
  { failure: { kind: 'cancelled', reason: 'stop' }, status: 'cancelled', http: 503, code: 'JOB_CANCELLED', v1: /^The run was cancelled$/, v2: /^The job was cancelled$/ },
  { failure: { kind: 'cancelled', reason: 'shutdown' }, status: 'cancelled', http: 503, code: 'JOB_CANCELLED', v1: /shutting down/, v2: /^The job was cancelled$/ },
];

t.test('the transition table: queued -> in_progress -> a terminal status, and terminal statuses are final', async (t) => {
  t.equal(advance('queued', 'in_progress'), 'in_progress');
  t.equal(advance('in_progress', 'completed'), 'completed');
  t.equal(advance('queued', 'cancelled'), 'cancelled', 'a queued run may end without starting');
  t.throws(() => advance('queued', 'completed'), IllegalTransitionError, 'a run completes only after it started');
  t.throws(() => advance('in_progress', 'queued'), IllegalTransitionError);
  for (const status of Object.keys(TRANSITIONS) as RunStatus[]) {
    if (!isTerminal(status)) continue;
    for (const to of Object.keys(TRANSITIONS) as RunStatus[]) t.throws(() => advance(status, to), IllegalTransitionError, `${status} -> ${to}`);
  }
  t.same((Object.keys(TRANSITIONS) as RunStatus[]).filter(isTerminal).sort(), ['cancelled', 'completed', 'failed', 'timed_out']);
});

t.test('the failure table: every kind has its status, HTTP status, v2 code and wording', async (t) => {
  const kinds = new Set<RunFailureKind>(CASES.map((c) => c.failure.kind));
  t.same([...kinds].sort(), ['cancelled', 'component', 'crash', 'interrupted', 'missing_variable', 'store', 'timed_out'], 'every kind is covered');
  const logger = createLogger('silent');
  for (const c of CASES) {
    const name = `${c.failure.kind}${'reason' in c.failure ? ` (${c.failure.reason})` : ''}`;
    t.equal(statusOf(c.failure), c.status, `${name}: status`);
    const v1 = failureError(c.failure);
    t.match(v1.message, c.v1, `${name}: v1 wording`);
    t.equal(errorReply(v1, logger).status, c.http, `${name}: HTTP status`);
    t.equal(v1.code, undefined, `${name}: a v1 body is a bare detail`);
    const v2 = failureError(c.failure, 'v2');
    t.equal(v2.code, c.code, `${name}: a v2 error carries its code`);
    t.match(v2.message, c.v2, `${name}: v2 wording`);
    const detail = failureDetail(c.failure, 'flow-1');
    t.equal(detail.code, c.code);
    t.match(detail.error, c.v2);
  }
  t.match(failureDetail(CASES[0].failure, 'flow-1').details, { flow_id: 'flow-1', component_id: 'Calc-1', component_type: 'Calculator', display_name: 'Calculator', error_type: 'Error' });
  t.same(failureDetail({ kind: 'timed_out', timeoutMs: 300 }, 'f').details, { flow_id: 'f', timeout_seconds: 0.3 });
  t.equal(statusOf(undefined), 'completed');
});

t.test('an execution end becomes a failure: a missing variable is its own kind, an abort is what it was stopped for', async (t) => {
  const missing = failureOf({ kind: 'component', ...vertex, error: new VariableNotFoundError('X') }, undefined);
  t.equal(missing?.kind, 'missing_variable');
  t.equal(failureOf({ kind: 'component', ...vertex, error: new Error('e') }, undefined)?.kind, 'component');
  t.same(failureOf({ kind: 'aborted' }, { kind: 'timed_out', timeoutMs: 5 }), { kind: 'timed_out', timeoutMs: 5 });
  t.equal(failureOf({ kind: 'aborted' }, undefined)?.kind, 'crash', 'an abort nobody asked for is a bug');
  t.equal(failureOf({ kind: 'completed' }, { kind: 'cancelled', reason: 'stop' }), undefined, 'a run that completed before its stop took effect completed');
});

/** A watcher that records what it saw. */
function recorder() {
  const seen: number[] = [];
  let ended = false;
  return { seen, ended: () => ended, watcher: { onEvent: (e: LogEntry) => seen.push(e.seq), onEnd: () => (ended = true) } };
}

t.test('a replay log: replay after a point, then follow, in one step; watchers after the end get it all at once', async (t) => {
  const log = new RunLog('replay');
  log.append('a', 1);
  log.append('b', 2);
  const early = recorder();
  log.watch(1, early.watcher);
  t.same(early.seen, [2], 'entries after the one named');
  log.append('c', 3);
  t.same(early.seen, [2, 3], 'then every new one');
  const detached = recorder();
  const detach = log.watch(0, detached.watcher);
  detach();
  log.append('d', 4);
  t.same(detached.seen, [1, 2, 3], 'an unsubscribed watcher gets nothing more');
  log.end();
  t.ok(early.ended());
  const late = recorder();
  log.watch(2, late.watcher);
  t.same(late.seen, [3, 4]);
  t.ok(late.ended(), 'a finished log ends its new watchers at once');
  t.equal(log.length, 4);
  const stored = recorder();
  replayFinished(log.events, 3, stored.watcher);
  t.same(stored.seen, [4]);
  t.ok(stored.ended());
});

t.test('an until-watched log keeps entries only until its reader attaches', async (t) => {
  const log = new RunLog('until-watched');
  log.append('a', 1);
  const reader = recorder();
  log.watch(0, reader.watcher);
  t.same(reader.seen, [1], 'what came before the reader is not lost');
  log.append('b', 2);
  t.same(reader.seen, [1, 2]);
  t.same(log.events, [], 'nothing is held once it was read');
  t.equal(log.length, 2, 'numbering goes on');
});

t.test('deadlines: items expire in the order they came, a removed one never, and a late one after the head went', async (t) => {
  const expired: string[] = [];
  let heard!: () => void;
  const deadlines = new Deadlines<string>(30, (item) => {
    expired.push(item);
    if (expired.length === 2) heard();
  });
  t.teardown(() => deadlines.close());
  const two = new Promise<void>((resolve) => (heard = resolve));
  deadlines.add('a', 'a');
  deadlines.add('b', 'b');
  deadlines.add('c', 'c');
  deadlines.remove('a');
  deadlines.remove('b');
  // The timer armed for `a` fires first, finds `c` not yet due, and re-arms for it.
  const started = Date.now();
  deadlines.add('d', 'd');
  await two;
  t.same(expired, ['c', 'd']);
  t.ok(Date.now() - started >= 25, 'not before their time');
});
