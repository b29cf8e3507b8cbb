/**
 * Custom components in flows through the real HTTP edge: a TypeScript component run through v1 run and v2
 * workflows; limits breaking one run while another completes; custom code refused where not allowed; Python code
 * refused always.
 */
import t from 'tap';
import { createFlow } from './support/flow-helpers.js';
import { startTestServer } from './support/server.js';
import { customFlow, customSource, SHOUT_SOURCE } from './support/custom-sources.js';
import { postWorkflow } from './support/workflows.js';

const PYTHON_SOURCE = 'from lfx.custom import Component\n\nclass Shout(Component):\n    display_name = "Shout"\n';

t.test('a TypeScript custom component runs through v1 run and v2 workflows', async (t) => {
  const server = await startTestServer({ CUSTOM_COMPONENTS: 'true' });
  t.teardown(() => server.close());
  const flow = await createFlow(server, customFlow('shout', SHOUT_SOURCE, 'shouted', 'Shout', { times: 3 }));

  const v1 = await server.request(`/api/v1/run/${flow.id}`, { method: 'POST', json: { input_value: 'hello' } });
  t.equal(v1.status, 200);
  const reply = await v1.json();
  t.equal(reply.outputs[0].outputs[0].results.message.text, 'HELLO HELLO HELLO');

  const v2 = await postWorkflow(server, { flow_id: flow.id, inputs: { 'ChatInput-in001.input_value': 'hi', 'Shout-cc001.times': 2 } });
  t.equal(v2.status, 200);
  const job = await v2.json();
  t.equal(job.status, 'completed');
  t.match(JSON.stringify(job.outputs), /HI HI/, 'the v2 reply carries the shouted text');
});

t.test('an infinite loop and a memory bomb fail their runs naming node and limit; a run beside them completes', async (t) => {
  const server = await startTestServer({ CUSTOM_COMPONENTS: 'true', CUSTOM_COMPONENT_CPU_MS: '150', CUSTOM_COMPONENT_MEMORY_MB: '16' });
  t.teardown(() => server.close());
  const loop = await createFlow(server, customFlow('loop', customSource('run() { for (;;) {} }'), 'out', 'Loop'));
  const bomb = await createFlow(server, customFlow('bomb', customSource('run() { const k = []; for (;;) k.push(new Array(10000).fill(1)); }'), 'out', 'Bomb'));
  const echo = await createFlow(server, customFlow('echo', customSource('run(i) { return { out: i.text }; }'), 'out', 'Echo'));
  const run = (id: string, input: string) => server.request(`/api/v1/run/${id}`, { method: 'POST', json: { input_value: input } });
  const [looped, bombed, echoed] = await Promise.all([run(loop.id, 'x'), run(bomb.id, 'x'), run(echo.id, 'still here')]);
  t.equal(echoed.status, 200);
  t.equal((await echoed.json()).outputs[0].outputs[0].results.message.text, 'still here');
  const loopBody = JSON.stringify(await looped.json());
  t.match(loopBody, /Loop-cc001/, 'the loop error names the node');
  t.match(loopBody, /CPU time limit of 150 ms/);
  const bombBody = JSON.stringify(await bombed.json());
  t.match(bombBody, /Bomb-cc001/);
  t.match(bombBody, /memory limit of 16 MB/);
  const v2 = await (await postWorkflow(server, { flow_id: loop.id, inputs: { 'ChatInput-in001.input_value': 'x' } })).json();
  t.match(v2, { status: 'failed', errors: [{ error: /CPU time limit of 150 ms/, details: { component_id: 'Loop-cc001' } }] }, 'v2 reports the same failure');
  const after = await run(echo.id, 'after');
  t.equal((await after.json()).outputs[0].outputs[0].results.message.text, 'after', 'the service goes on');
});

t.test('custom code on a server that does not allow it is a 400 naming the node; Python is never run', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const custom = await createFlow(server, customFlow('shout', SHOUT_SOURCE));
  const refused = await server.request(`/api/v1/run/${custom.id}`, { method: 'POST', json: { input_value: 'x' } });
  t.equal(refused.status, 400);
  t.match((await refused.json()).detail, /Shout-cc001.*custom components are not allowed.*FLOWSVC_CUSTOM_COMPONENTS/);
  const v2 = await postWorkflow(server, { flow_id: custom.id, inputs: {} });
  t.equal(v2.status, 400);
  t.match(JSON.stringify(await v2.json()), /Shout-cc001/);

  const allowing = await startTestServer({ CUSTOM_COMPONENTS: 'true' });
  t.teardown(() => allowing.close());
  const python = await createFlow(allowing, customFlow('python', PYTHON_SOURCE));
  const pythonRun = await allowing.request(`/api/v1/run/${python.id}`, { method: 'POST', json: { input_value: 'x' } });
  t.equal(pythonRun.status, 400);
  t.match((await pythonRun.json()).detail, /Shout-cc001.*Python components are not run here/);
  const broken = await createFlow(allowing, customFlow('broken', 'export default { displayName: "x", run( };'));
  const brokenRun = await allowing.request(`/api/v1/run/${broken.id}`, { method: 'POST', json: { input_value: 'x' } });
  t.equal(brokenRun.status, 400);
  t.match((await brokenRun.json()).detail, /Shout-cc001.*syntax error.*line 1/);
});

t.test('escape attempts through a flow find nothing, and a returned __proto__ pollutes nothing of the server', async (t) => {
  const server = await startTestServer({ CUSTOM_COMPONENTS: 'true' });
  t.teardown(() => server.close());
  const probe = customSource(`async run() {
    const outside = Function('return this')();
    let imported = 'loaded';
    try { await import('node:child_process'); } catch (error) { imported = 'refused'; }
    let required = 'loaded';
    const fsName = 'node:fs';
    try { require(fsName); } catch (error) { required = 'refused'; }
    const found = [typeof process, typeof outside.process, typeof fetch, typeof setTimeout, imported, required].join(' ');
    return { out: JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}, "text": "' + found + '"}') };
  }`);
  const flow = await createFlow(server, customFlow('probe', probe, 'out', 'Probe'));
  const res = await server.request(`/api/v1/run/${flow.id}`, { method: 'POST', json: { input_value: 'x' } });
  t.equal(res.status, 200);
  const reply = await res.json();
  t.equal(reply.outputs[0].outputs[0].results.message.text, 'undefined undefined undefined undefined refused refused');
  t.equal(({} as Record<string, unknown>).polluted, undefined, "the server's Object.prototype is untouched");
  t.notMatch(JSON.stringify(reply), /polluted/, 'and the reply carries nothing of it');
});

t.test('fields named like Object.prototype members (constructor, toString) get their own values', async (t) => {
  const server = await startTestServer({ CUSTOM_COMPONENTS: 'true' });
  t.teardown(() => server.close());
  const source = `export default {
  displayName: 'Protoish',
  fields: {
    text: { kind: 'text', displayName: 'Text' },
    constructor: { kind: 'str', displayName: 'Constructor', value: 'default ctor' },
    toString: { kind: 'str', displayName: 'To String' },
    hasOwnProperty: { kind: 'int', displayName: 'Has Own', value: 7 },
  },
  outputs: [{ name: 'out', displayName: 'Out', types: ['Message'] }],
  run(inputs) {
    return { out: [typeof inputs.constructor, inputs.constructor, typeof inputs.toString, inputs.toString, inputs.hasOwnProperty, inputs.text].join('|') };
  },
};
`;
  const text = async (res: Response) => (await res.json()).outputs[0].outputs[0].results.message.text;
  const defaults = await createFlow(server, customFlow('protoish', source, 'out', 'Protoish', { toString: 'node string' }));
  const res = await server.request(`/api/v1/run/${defaults.id}`, { method: 'POST', json: { input_value: 'hi' } });
  t.equal(res.status, 200);
  t.equal(await text(res), 'string|default ctor|string|node string|7|hi', "the definition's default and the node's value");
  const valued = await createFlow(server, customFlow('protoish valued', source, 'out', 'Protoish', { constructor: 'node ctor', toString: 'node string' }));
  t.equal(await text(await server.request(`/api/v1/run/${valued.id}`, { method: 'POST', json: { input_value: 'hi' } })), 'string|node ctor|string|node string|7|hi');
  const tweaked = await server.request(`/api/v1/run/${valued.id}`, { method: 'POST', json: { input_value: 'hi', tweaks: { 'Protoish-cc001': { constructor: 'tweaked ctor' } } } });
  t.match(await text(tweaked), /^string\|tweaked ctor\|/, 'a tweak reaches it too');
});
