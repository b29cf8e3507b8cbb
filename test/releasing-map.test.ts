/**
 * Maps whose entries come and go once per run (src/collections/releasing-map.ts), and the nact actors let go once
 * stopped (actors/actor-release.ts): each still behaves as the Map or actor it stands for, and keeps nothing of what
 * was deleted or stopped.
 */
import { createRequire } from 'node:module';
import { dispatch, spawn, start, stop, type Ref } from 'nact';
import t from 'tap';
import { releaseStoppedChildren } from '../actors/actor-release.js';
import { ReleasingMap } from '../src/collections/releasing-map.js';

const systems = createRequire(import.meta.url)('nact/lib/system-map.js') as { find(name: string, ref?: unknown): Record<string, unknown> | undefined };
const nameOf = (ref: Ref<never>) => (ref as unknown as { system: { name: string } }).system.name;

t.test('a ReleasingMap answers as a Map, in insertion order, and deleting while iterating is safe', async (t) => {
  const map = new ReleasingMap<string, { n: number }>();
  for (const n of [1, 2, 3, 4]) map.set(`k${n}`, { n });
  map.set('k2', { n: 20 });
  t.equal(map.size, 4);
  t.ok(map.has('k3'));
  t.same(map.get('k2'), { n: 20 }, 'set on a key it holds replaces the value, in place');
  t.same(map.delete('k1'), { n: 1 }, 'delete returns the value it let go');
  t.equal(map.delete('k1'), undefined, 'and nothing the second time');
  t.notOk(map.has('k1'));
  const seen: string[] = [];
  for (const [key] of map.entries()) {
    seen.push(key);
    map.delete('k3');
  }
  t.same(seen, ['k2', 'k4'], 'an entry deleted during iteration is not visited');
  t.same([...map.values()], [{ n: 20 }, { n: 4 }]);
  map.clear();
  t.equal(map.size, 0);
  t.same([...map.entries()], []);
});

t.test('a stopped actor lets go of its handler and state, and its system of the actor', async (t) => {
  const system = start();
  t.teardown(() => stop(system));
  releaseStoppedChildren(system);
  const big = { payload: 'x'.repeat(1000) };
  let done!: () => void;
  const handled = new Promise<void>((resolve) => (done = resolve));
  const job = spawn(system, (state: { held: typeof big }, _msg: string, ctx) => {
    stop(ctx.self);
    done();
    return state;
  }, 'job-1', { initialStateFunc: () => ({ held: big }) });
  const actor = systems.find(nameOf(system), job)!;
  t.same(actor.state, { held: big }, 'a running actor holds its state');
  dispatch(job, 'stop');
  await handled;
  // nact stores the handler's returned state after the handler ran: wait for that turn.
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(actor.stopped, true);
  t.equal(actor.state, undefined, 'the state the handler returned after stopping is let go');
  t.equal(actor.f, undefined, 'and the handler');
  t.equal(actor.initialStateFunc, undefined);
  t.equal(systems.find(nameOf(system), job), undefined, 'the system no longer finds it');
  const registry = systems.find(nameOf(system))!.children as ReleasingMap<string, unknown>;
  t.ok(registry instanceof ReleasingMap, "the system's registry of its children is a ReleasingMap");
  t.equal(registry.size, 0);
});

t.test('actors under a released system still spawn, take messages in order and stop', async (t) => {
  const system = start();
  t.teardown(() => stop(system));
  releaseStoppedChildren(system);
  const seen: number[] = [];
  let finished!: () => void;
  const all = new Promise<void>((resolve) => (finished = resolve));
  const counter = spawn(system, (count: number, n: number, ctx) => {
    seen.push(n);
    if (count + 1 === 3) {
      stop(ctx.self);
      finished();
    }
    return count + 1;
  }, 'counter', { initialState: 0 });
  t.throws(() => spawn(system, (s: number) => s, 'counter'), /already exists/, 'names are still unique');
  for (const n of [1, 2, 3]) dispatch(counter, n);
  await all;
  t.same(seen, [1, 2, 3]);
});
