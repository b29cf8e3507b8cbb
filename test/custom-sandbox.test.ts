/**
 * The custom component sandbox on its own: a TypeScript component described and run, limits (CPU, memory, stack)
 * stopping a run with a limit error, escape attempts finding nothing of the host, and sandboxes reused.
 */
import t from 'tap';
import { CustomComponents } from '../src/components/custom/custom-components.js';
import type { ComponentContext } from '../src/components/contract.js';
import { createMessage } from '../src/values/message.js';
import { SHOUT_SOURCE, customSource } from './support/custom-sources.js';

const limits = { cpuMs: 200, memoryMb: 16 };

function context(requested: string[], userId = 'user-1'): ComponentContext {
  return {
    signal: new AbortController().signal,
    emit() {},
    logger: undefined as never,
    run: { flowId: 'flow-1', flowName: 'f', sessionId: 's-1', userId, vertexId: 'Shout-1', displayName: 'Shout' },
    variable: async () => '',
    memory: undefined as never,
    sourceOf: () => undefined,
    requested: new Set(requested),
    dynamic: {},
  };
}

t.test('a TypeScript component is described and run; its Message output is a Message', async (t) => {
  const customs = new CustomComponents(limits);
  await customs.start();
  t.teardown(() => customs.close());
  const shout = customs.componentOf(SHOUT_SOURCE);
  t.equal(shout.type, 'Shout');
  t.same(Object.keys(shout.fields), ['text', 'times']);
  t.equal(shout.fields.times!.type, 'int');
  t.same(shout.outputs.map((o) => o.name), ['shouted']);
  const out = await shout.run({ text: createMessage({ text: 'hey' }), times: 3 } as never, context(['shouted']));
  t.match(out.shouted, { kind: 'message', text: 'HEY HEY HEY', session_id: 's-1' });
});

t.test('an async run, and a run that throws, are told apart', async (t) => {
  const customs = new CustomComponents(limits);
  await customs.start();
  t.teardown(() => customs.close());
  const later = customs.componentOf(customSource('async run(i) { await null; return { out: i.text + "!" }; }'));
  t.match((await later.run({ text: 'a' } as never, context(['out']))).out, { text: 'a!' });
  const failing = customs.componentOf(customSource('run() { throw new Error("nope"); }'));
  await t.rejects(failing.run({ text: 'a' } as never, context(['out'])), { name: 'ComponentError', message: 'nope' });
});

t.test('an infinite loop, a memory bomb and a deep recursion are stopped; another run goes on', async (t) => {
  const customs = new CustomComponents(limits);
  await customs.start();
  t.teardown(() => customs.close());
  const loop = customs.componentOf(customSource('run() { for (;;) {} }'));
  const bomb = customs.componentOf(customSource('run() { const keep = []; for (;;) keep.push(new Array(10000).fill(keep.length)); }'));
  const deep = customs.componentOf(customSource('run() { const f = (n) => f(n + 1) + 1; return { out: f(0) }; }'));
  const echo = customs.componentOf(customSource('run(i) { return { out: i.text }; }'));
  const started = performance.now();
  const [looped, bombed, recursed, echoed] = await Promise.allSettled([loop, bomb, deep, echo].map((c) => c.run({ text: 'fine' } as never, context(['out']))));
  t.match(looped, { status: 'rejected', reason: { name: 'ComponentError', message: /CPU time limit of 200 ms/ } });
  t.match(bombed, { status: 'rejected', reason: { name: 'ComponentError', message: /memory limit of 16 MB/ } });
  t.match(recursed, { status: 'rejected', reason: { message: /call stack/i } });
  t.match(echoed, { status: 'fulfilled', value: { out: { text: 'fine' } } });
  t.ok(performance.now() - started < 5000, 'every run ended within its limits');
  t.match(await echo.run({ text: 'again' } as never, context(['out'])), { out: { text: 'again' } }, 'the service goes on');
});

t.test('escapes find nothing of the host', async (t) => {
  const customs = new CustomComponents(limits);
  await customs.start();
  t.teardown(() => customs.close());
  const probe = customs.componentOf(
    customSource(`async run() {
      const global = Function('return this')();
      let imported;
      try { await import('node:fs'); imported = 'loaded'; } catch (error) { imported = String(error); }
      return { out: {
        process: typeof globalThis.process, require: typeof require, globalProcess: typeof global.process,
        fetch: typeof fetch, setTimeout: typeof setTimeout, imported, sameGlobal: global === globalThis,
      } };
    }`, ['Data']),
  );
  const seen = (await probe.run({} as never, context(['out']))).out as { data: Record<string, unknown> };
  t.same(seen.data, { process: 'undefined', require: 'undefined', globalProcess: 'undefined', fetch: 'undefined', setTimeout: 'undefined', imported: seen.data.imported, sameGlobal: true });
  t.match(seen.data.imported, /could not load module|not/i, 'import() finds no module');

  const polluter = customs.componentOf(customSource('run() { return { out: JSON.parse(\'{"__proto__": {"polluted": "yes"}, "text": "x"}\') }; }', ['Data']));
  const polluted = (await polluter.run({} as never, context(['out']))).out as { data: Record<string, unknown> };
  const copy = Object.assign({}, polluted.data);
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype untouched');
  t.equal((copy as Record<string, unknown>).polluted, undefined, 'nor a copy of the returned value');
  t.notOk(Object.hasOwn(polluted.data, '__proto__'), 'the key was dropped at the boundary');
});

t.test('one caller reuses its sandboxes; another caller gets its own', async (t) => {
  const customs = new CustomComponents(limits);
  await customs.start();
  t.teardown(() => customs.close());
  const counter = customs.componentOf(customSource('run() { globalThis.count = (globalThis.count || 0) + 1; return { out: String(globalThis.count) }; }'));
  for (let i = 1; i <= 3; i++) t.match(await counter.run({} as never, context(['out'], 'alice')), { out: { text: String(i) } });
  t.match(await counter.run({} as never, context(['out'], 'bob')), { out: { text: '1' } }, "bob does not see alice's state");
  t.match(customs.pool.stats, { created: 2, reused: 2, engines: 2 });
});

t.test('engines of sandboxes let go of are reused for new sandboxes', async (t) => {
  const customs = new CustomComponents(limits, undefined, { perKey: 1, total: 4 });
  await customs.start();
  t.teardown(() => customs.close());
  const echo = customs.componentOf(customSource('run(i) { return { out: i.text }; }'));
  // More callers than the pool keeps idle: the oldest sandboxes are freed, and their engines serve the next ones.
  for (let i = 0; i < 12; i++) t.match(await echo.run({ text: `caller ${i}` } as never, context(['out'], `caller-${i}`)), { out: { text: `caller ${i}` } });
  t.equal(customs.pool.stats.created, 12);
  t.equal(customs.pool.stats.engines, 5, 'four kept idle, and one engine passed from each freed sandbox to the next');
});

t.test('sources that are not components say what is wrong', async (t) => {
  const customs = new CustomComponents(limits);
  await customs.start();
  t.teardown(() => customs.close());
  t.match(customs.inspect('export default { displayName: "x", run( };'), { syntax: { line: 1, message: /Unexpected/ } });
  t.match(customs.inspect('import fs from "node:fs";\nexport default { f: fs.readFileSync }'), { imports: ['node:fs'] });
  t.match(customs.inspect('export default 3'), { definition: [/must be an object/] });
  t.match(customs.inspect('export default { displayName: "X", outputs: [{ name: "o", types: ["Message"] }], fields: { a: { kind: "nope", displayName: "A" } } }'), { definition: [/fields\.a\.kind/, /run: must be a function/] });
  t.match(customs.inspect('while (true) {}\nexport default {}'), { definition: [/CPU time limit/] });
  t.throws(() => customs.componentOf('export default 3'), /must be an object/);
});

t.test('a source that breaks a limit while being described leaves describing working', async (t) => {
  const customs = new CustomComponents(limits);
  await customs.start();
  t.teardown(() => customs.close());
  const bomb = 'const keep = []; for (;;) keep.push(new Array(10000).fill(1));\nexport default {}';
  t.match(customs.inspect(bomb), { definition: [/memory limit of 16 MB/] });
  t.ok(customs.inspect(customSource('run() { return { out: 1 }; }')).compiled, 'the describer standing by takes over at once');
  t.match(customs.inspect('for (;;) {}\nexport default {}'), { definition: [/CPU time limit of 200 ms/] });
  await customs.describersReady();
  t.ok(customs.inspect(customSource('run() { return { out: 2 }; }')).compiled, 'and describing goes on once a new one stands by');
});
