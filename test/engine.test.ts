import { z } from 'zod';
import t from 'tap';
import { defineComponent, type ComponentContext, type FieldSpec } from '../src/components/contract.js';
import { handle, text } from '../src/components/fields.js';
import { planRun } from '../src/engine/plan.js';
import { FlowInvalidError } from '../src/errors/index.js';
import { graphOf, harness } from './support/engine-harness.js';
import { occurrence, within } from './support/within.js';

const any = (displayName: string): FieldSpec<unknown> => handle({ displayName, inputTypes: ['Message'] });

/** A source that emits a fixed text. */
const source = defineComponent({
  type: 'TestSource',
  version: 1,
  displayName: 'Source',
  description: '',
  category: 'test',
  icon: '',
  fields: { value: text({ displayName: 'Value' }) },
  outputs: [{ name: 'out', displayName: 'Out', types: ['Message'], method: 'out' }],
  run: async (inputs) => ({ out: inputs.value }),
});

/**
 * Waits until released or aborted; records how many run at once and what it saw. `reached(n)` resolves once n
 * run at once and `aborted` once an abort reached one, so a test waits for those instead of sleeping.
 */
function gate() {
  const seen = { running: 0, maxRunning: 0, aborted: [] as string[], requested: [] as string[][] };
  const { fire: release, happened: released } = occurrence();
  const abort = occurrence();
  const counts: [n: number, reach: () => void][] = [];
  const reached = (n: number) => new Promise<void>((reach) => (seen.running >= n ? reach() : counts.push([n, reach])));
  const component = defineComponent({
    type: 'TestGate',
    version: 1,
    displayName: 'Gate',
    description: '',
    category: 'test',
    icon: '',
    fields: { input: any('Input') },
    outputs: [
      { name: 'out', displayName: 'Out', types: ['Message'], method: 'out' },
      { name: 'other', displayName: 'Other', types: ['Message'], method: 'other' },
    ],
    async run(inputs, ctx) {
      seen.running++;
      seen.maxRunning = Math.max(seen.maxRunning, seen.running);
      for (const [n, reach] of counts) if (seen.running >= n) reach();
      seen.requested.push([...ctx.requested]);
      try {
        await new Promise<void>((resolve, reject) => {
          released.then(resolve);
          ctx.signal.addEventListener('abort', () => {
            seen.aborted.push(ctx.run.vertexId);
            abort.fire();
            reject(new Error('aborted'));
          });
        });
      } finally {
        seen.running--;
      }
      return { out: `${inputs.input ?? ''}+${ctx.run.vertexId}`, other: 'other' };
    },
  });
  return { component, seen, release, reached, aborted: abort.happened };
}

/** A test component with one input and one output `out`: only its type and what it does differ. */
const inOut = (type: string, run: (inputs: { input: unknown }, ctx: ComponentContext) => Promise<{ out: unknown }>) =>
  defineComponent({
    type,
    version: 1,
    displayName: type,
    description: '',
    category: 'test',
    icon: '',
    fields: { input: any('Input') },
    outputs: [{ name: 'out', displayName: 'Out', types: ['Message'], method: 'out' }],
    run,
  });

const failing = inOut('TestFail', async () => {
  throw new Error('boom');
});

/** Chooses one of two outputs, as If-Else does: the other stays undefined. */
const router = defineComponent({
  type: 'TestRouter',
  version: 1,
  displayName: 'Router',
  description: '',
  category: 'test',
  icon: '',
  fields: { input: any('Input'), go: text({ displayName: 'Go' }) },
  outputs: [
    { name: 'yes', displayName: 'Yes', types: ['Message'], method: 'yes' },
    { name: 'no', displayName: 'No', types: ['Message'], method: 'no' },
  ],
  run: async (inputs) => (inputs.go === 'yes' ? { yes: inputs.input } : { no: inputs.input }),
});

const collect = defineComponent({
  type: 'TestCollect',
  version: 1,
  displayName: 'Collect',
  description: '',
  category: 'test',
  icon: '',
  fields: { items: { ...any('Items'), list: true, schema: z.array(z.unknown()).default([]) } },
  outputs: [{ name: 'out', displayName: 'Out', types: ['Message'], method: 'out' }],
  run: async (inputs) => ({ out: (inputs.items as unknown[]).join(',') }),
});

t.test('independent branches run concurrently; a vertex computes only the outputs that feed edges', async (t) => {
  const h = harness();
  t.teardown(() => h.close());
  const g = gate();
  const graph = graphOf(
    [['src', source, { value: 'v' }], ['a', g.component], ['b', g.component], ['join', collect]],
    [['src', 'out', 'a', 'input'], ['src', 'out', 'b', 'input'], ['a', 'out', 'join', 'items'], ['b', 'out', 'join', 'items']],
  );
  const running = h.run(graph);
  await within(g.reached(2), 'both gates running');
  t.equal(g.seen.maxRunning, 2, 'both branches were in flight at once');
  g.release();
  const outcome = await running.outcome;
  t.equal(outcome.status, 'completed');
  t.same(outcome.results.get('join'), { out: 'v+a,v+b' }, 'a list field collects every edge');
  t.same(g.seen.requested, [['out'], ['out']], 'only the output feeding an edge is requested');
});

t.test('a failing component fails the run, names itself, and cancels the rest', async (t) => {
  const h = harness();
  t.teardown(() => h.close());
  const g = gate();
  const graph = graphOf([['src', source], ['slow', g.component], ['bad', failing]], [['src', 'out', 'slow', 'input'], ['src', 'out', 'bad', 'input']]);
  const events: any[] = [];
  const outcome = await h.run(graph, { events }).outcome;
  t.equal(outcome.status, 'failed');
  t.equal(outcome.failure?.vertexId, 'bad');
  t.equal(outcome.failure?.componentType, 'TestFail');
  t.equal(outcome.failure?.error.message, 'boom');
  await within(g.aborted, 'an abort reaching the gate');
  t.same(g.seen.aborted, ['slow'], 'the abort reached the component still running');
});

t.test('cancelling a run aborts the component in flight; a timeout says timed_out', async (t) => {
  const h = harness();
  t.teardown(() => h.close());
  const g = gate();
  const graph = graphOf([['src', source], ['slow', g.component]], [['src', 'out', 'slow', 'input']]);
  const running = h.run(graph);
  await within(g.reached(1), 'the gate running');
  running.cancel();
  t.equal((await running.outcome).status, 'cancelled');
  await within(g.aborted, 'an abort reaching the gate');
  t.same(g.seen.aborted, ['slow']);

  const timed = await h.run(graph, { timeoutMs: 30 }).outcome;
  t.equal(timed.status, 'timed_out');
});

t.test('a component that first reads the signal after its run was cancelled finds it aborted', async (t) => {
  const h = harness();
  t.teardown(() => h.close());
  const [started, released, looked] = [occurrence(), occurrence(), occurrence()];
  const seen: { aborted?: boolean; reason?: unknown } = {};
  const late = inOut('TestLateSignal', async (_inputs, ctx) => {
    started.fire();
    await released.happened; // never touches ctx.signal before the cancel
    seen.aborted = ctx.signal.aborted;
    seen.reason = ctx.signal.reason;
    looked.fire();
    return { out: 'late' };
  });
  const running = h.run(graphOf([['src', source], ['late', late]], [['src', 'out', 'late', 'input']]));
  await within(started.happened, 'the component starting');
  running.cancel();
  t.equal((await running.outcome).status, 'cancelled');
  released.fire();
  await within(looked.happened, 'the component reading its signal');
  t.equal(seen.aborted, true);
  t.equal((seen.reason as Error | undefined)?.name, 'AbortError', 'the reason an AbortController gives by default');
});

t.test('a router skips the branch it did not choose, and everything below it', async (t) => {
  const h = harness();
  t.teardown(() => h.close());
  const graph = graphOf(
    [['src', source, { value: 'x' }], ['route', router, { go: 'yes' }], ['onYes', collect], ['onNo', collect], ['belowNo', collect]],
    [['src', 'out', 'route', 'input'], ['route', 'yes', 'onYes', 'items'], ['route', 'no', 'onNo', 'items'], ['onNo', 'out', 'belowNo', 'items']],
  );
  const outcome = await h.run(graph).outcome;
  t.equal(outcome.status, 'completed');
  t.same(outcome.results.get('onYes'), { out: 'x' });
  t.same([...outcome.skipped].sort(), ['belowNo', 'onNo']);
});

t.test('start and stop components pick the region that runs', async (t) => {
  const graph = graphOf(
    [['a', source], ['b', collect], ['c', collect], ['other', source]],
    [['a', 'out', 'b', 'items'], ['b', 'out', 'c', 'items']],
  );
  t.same([...planRun(graph, { stopComponentId: 'b' }).region].sort(), ['a', 'b'], 'stop: the component and its ancestors');
  t.same([...planRun(graph, { startComponentId: 'b' }).region].sort(), ['a', 'b', 'c'], 'start: descendants and their ancestors');
  t.same(planRun(graph).layers, [['a', 'other'], ['b'], ['c']], 'layered order');
  t.throws(() => planRun(graph, { stopComponentId: 'nope' }), FlowInvalidError);
});

t.test('idle session actors are passivated; history survives in the store', async (t) => {
  const h = harness();
  t.teardown(() => h.close());
  const commits: Promise<void>[] = [];
  const memory = h.sessions.memoryFor('flow-1', (committed) => commits.push(committed));
  const { createMessage } = await import('../src/values/message.js');
  await memory.store(createMessage({ text: 'one', session_id: 'idle' }));
  await Promise.all(commits);
  t.equal(h.sessions.live, 1);
  h.sessions.passivate(0);
  t.equal(h.sessions.live, 0);
  const recent = await memory.recent({ sessionId: 'idle', limit: 10, order: 'ASC' });
  t.same(recent.map((m) => m.text), ['one'], 'a new session actor reads the history back');
});
