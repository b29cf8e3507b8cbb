/**
 * The custom component endpoints through the real edge: code validation (authenticated, never running code on the
 * host), prompt validation (Langflow's variable rules), custom_component and its update, and /api/v1/all listing a
 * user's stored custom components.
 */
import t from 'tap';
import { createFlow } from './support/flow-helpers.js';
import { startTestServer, type TestServer } from './support/server.js';
import { customFlow, SHOUT_SOURCE } from './support/custom-sources.js';

const post = (server: TestServer, path: string, json: unknown, key?: string | null) => server.request(path, { method: 'POST', json, key });

t.test('validate/code: refused without a key; reports syntax, imports and shape; never runs code on the host', async (t) => {
  const server = await startTestServer({ CUSTOM_COMPONENTS: 'true' });
  t.teardown(() => server.close());
  const keyless = await post(server, '/api/v1/validate/code', { code: SHOUT_SOURCE }, null);
  t.ok(keyless.status === 401 || keyless.status === 403, `a keyless call is refused (${keyless.status})`);

  const good = await post(server, '/api/v1/validate/code', { code: SHOUT_SOURCE });
  t.equal(good.status, 200);
  t.same(await good.json(), { imports: { errors: [] }, function: { errors: [] } });

  const syntax = await (await post(server, '/api/v1/validate/code', { code: 'export default {\n  run( {\n};' })).json();
  t.match(syntax.function.errors, [/^SyntaxError: .*\(line 3, column \d+\)$/]);
  const imports = await (await post(server, '/api/v1/validate/code', { code: 'import { readFileSync } from "node:fs";\nexport default { f: readFileSync };' })).json();
  t.match(imports.imports.errors, [/Module "node:fs" is not available/]);
  const shape = await (await post(server, '/api/v1/validate/code', { code: 'export default { displayName: "X", outputs: [] }' })).json();
  t.match(shape.function.errors, [/outputs/, /run: must be a function/]);
  const thrown = await (await post(server, '/api/v1/validate/code', { code: 'throw new Error("top level")' })).json();
  t.match(thrown.function.errors, [/top level/]);

  const hostile = 'globalThis.ranOnHost = true; export default { displayName: "X", outputs: [{ name: "o", types: ["Data"] }], run() { return {}; } }';
  t.same((await (await post(server, '/api/v1/validate/code', { code: hostile })).json()).function.errors, []);
  t.equal((globalThis as Record<string, unknown>).ranOnHost, undefined, 'the top level ran in the sandbox only');

  const missing = await post(server, '/api/v1/validate/code', {});
  t.equal(missing.status, 422);
  t.match(await missing.json(), { detail: [{ loc: ['body', 'code'], type: String, msg: String }] });
});

t.test('validate/code where custom components are not allowed checks the source without describing it', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const body = await (await post(server, '/api/v1/validate/code', { code: SHOUT_SOURCE })).json();
  t.match(body.function.errors, [/not checked: custom components are not allowed/]);
  const syntax = await (await post(server, '/api/v1/validate/code', { code: 'export default {' })).json();
  t.match(syntax.function.errors, [/^SyntaxError/]);
  const refused = await post(server, '/api/v1/custom_component', { code: SHOUT_SOURCE });
  t.equal(refused.status, 400);
  t.match(await refused.json(), { detail: /not allowed on this server/ });
});

t.test('validate/prompt: variables become fields; old ones go; bad names are clear 400s', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const frontend_node = {
    template: { template: { value: '{old} {kept}' }, old: { value: 'x' }, kept: { value: 'typed before' } },
    custom_fields: { template: ['old', 'kept'] },
    display_name: 'Prompt',
  };
  const res = await post(server, '/api/v1/validate/prompt', { name: 'template', template: 'Hi {kept} and {fresh}, {{literal}}', frontend_node });
  t.equal(res.status, 200);
  const body = await res.json();
  t.same(body.input_variables, ['kept', 'fresh']);
  t.same(body.frontend_node.custom_fields, { template: ['kept', 'fresh'] });
  t.notOk('old' in body.frontend_node.template, 'a variable no longer used loses its field');
  t.match(body.frontend_node.template.fresh, { name: 'fresh', display_name: 'fresh', type: 'str', input_types: ['Message'], multiline: true, value: '' });
  t.equal(body.frontend_node.template.kept.value, 'typed before', 'a remaining field keeps its value');
  t.equal(body.frontend_node.display_name, 'Prompt', 'the rest of the node is kept');

  const mustache = await (await post(server, '/api/v1/validate/prompt', { name: 'template', template: 'Hi {{name}} {single}', mustache: true })).json();
  t.same(mustache, { input_variables: ['name'], frontend_node: null });

  for (const [template, why] of [['{a b}', /spaces/], ['{a.b}', /cannot contain/], ['{code}', /reserved/], ['{1st}', /digit/], ['{open', /./]] as const) {
    const bad = await post(server, '/api/v1/validate/prompt', { name: 'template', template });
    t.equal(bad.status, 400, `${template} is refused`);
    t.match((await bad.json()).detail, why);
  }
  const proto = await (await post(server, '/api/v1/validate/prompt', { name: 'template', template: '{__proto__}', frontend_node: { template: {} } })).json();
  t.ok(Object.hasOwn(proto.frontend_node.template, '__proto__'), 'a variable named __proto__ is a field like any other');
  t.equal(({} as Record<string, unknown>).input_types, undefined);
});

t.test('custom_component gives the editor node; update changes a field; the node runs; /all lists stored ones', async (t) => {
  const server = await startTestServer({ CUSTOM_COMPONENTS: 'true' });
  t.teardown(() => server.close());
  const res = await post(server, '/api/v1/custom_component', { code: SHOUT_SOURCE });
  t.equal(res.status, 200);
  const { data, type } = await res.json();
  t.equal(type, 'Shout');
  t.match(data, { display_name: 'Shout', description: 'Upper-cases a message and repeats it.', outputs: [{ name: 'shouted', types: ['Message'] }], base_classes: ['Message'] });
  t.equal(data.template.code.value, SHOUT_SOURCE);
  t.match(data.template.times, { type: 'int', value: 2, _input_type: 'IntInput' });
  t.match(data.template.text, { input_types: ['Message'], required: true });

  const kept = await (await post(server, '/api/v1/custom_component', { code: SHOUT_SOURCE, frontend_node: { template: { times: { value: 5 } } } })).json();
  t.equal(kept.data.template.times.value, 5, 'a value the editor had is kept');
  const updated = await post(server, '/api/v1/custom_component/update', { code: SHOUT_SOURCE, field: 'times', field_value: 4, template: data.template });
  t.equal(updated.status, 200);
  t.equal((await updated.json()).template.times.value, 4);
  const bad = await post(server, '/api/v1/custom_component', { code: 'export default { displayName: "X" }' });
  t.equal(bad.status, 400);
  t.match(await bad.json(), { detail: /outputs/ });

  // The node as the editor got it, dropped into a flow, runs.
  const flowBody = customFlow('from the editor', SHOUT_SOURCE);
  flowBody.data.nodes[1]!.data.node = { ...data, template: { ...data.template, times: { ...data.template.times, value: 2 } } } as never;
  const flow = await createFlow(server, flowBody);
  const run = await (await post(server, `/api/v1/run/${flow.id}`, { input_value: 'go' })).json();
  t.equal(run.outputs[0].outputs[0].results.message.text, 'GO GO');

  const before = await (await server.request('/api/v1/all')).json();
  t.notOk(before.custom_components, 'nothing stored yet');
  const component = customFlow('Shout', SHOUT_SOURCE);
  component.data = { nodes: [{ id: 'Shout-cc001', type: 'genericNode', data: { id: 'Shout-cc001', type: 'Shout', node: data } }], edges: [] } as never;
  await createFlow(server, { ...component, is_component: true });
  const all = await (await server.request('/api/v1/all')).json();
  t.match(all.custom_components.Shout, { display_name: 'Shout', template: { code: { value: SHOUT_SOURCE } } });
  t.ok(Object.values(all).some((category) => (category as Record<string, unknown>).ChatInput), 'beside the native ones');
});
