import t from 'tap';
import type { FieldSpec } from '../src/components/contract.js';
import { COMPONENTS } from '../src/components/registry.js';
import { startTestServer, type TestServer } from './support/server.js';

type Json = Record<string, any>;

/** Langflow's own exports, the reference for what a node must look like (shared research material). */

/** The default a FieldSpec declares: its template value, else what its schema gives for a missing value. */
function declaredDefault(spec: FieldSpec): unknown {
  if (spec.value !== undefined) return spec.value;
  const parsed = spec.schema.safeParse(undefined);
  return parsed.success && parsed.data !== undefined ? parsed.data : '';
}

/** JSON's kind of a value, where arrays and null are not objects. */
function kind(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

let server: TestServer;
let catalog: Json;

t.before(async () => {
  server = await startTestServer();
  const res = await server.request('/api/v1/all');
  if (res.status !== 200) throw new Error(`/api/v1/all answered ${res.status}`);
  catalog = (await res.json()) as Json;
});
t.teardown(() => server.close());

t.test('GET /api/v1/all needs a key', async (t) => {
  const res = await server.request('/api/v1/all', { key: null });
  t.equal(res.status, 403);
  t.type(((await res.json()) as Json).detail, 'string');
});

t.test('GET /api/v1/all is plain JSON, not gzip', async (t) => {
  const res = await server.request('/api/v1/all', { headers: { 'accept-encoding': 'gzip' } });
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /application\/json/);
  t.equal(res.headers.get('content-encoding'), null);
  await res.arrayBuffer();
});

t.test('every registered component is listed under its category, and nothing else', async (t) => {
  const listed = Object.entries(catalog).flatMap(([category, nodes]) => Object.keys(nodes as Json).map((type) => `${category}/${type}`));
  t.same(listed.sort(), COMPONENTS.map((c) => `${c.category}/${c.type}`).sort());
});

for (const component of COMPONENTS) {
  t.test(`${component.type}: node generated from its definition`, async (t) => {
    const node = catalog[component.category][component.type] as Json;
    t.equal(node.display_name, component.displayName);
    t.equal(node.description, component.description);
    t.equal(node.icon, component.icon);
    t.same(node.field_order, Object.keys(component.fields));
    t.same(node.metadata, { module: `flowsvc.components.${component.category}.${component.type}` });
    for (const key of ['beta', 'legacy', 'frozen', 'minimized', 'tool_mode', 'edited', 'pinned']) t.equal(node[key], false, key);
    t.same(node.custom_fields, {});
    t.equal(node.documentation, '');

    const template = node.template as Json;
    t.equal(template._type, 'Component');
    t.same(Object.keys(template).sort(), ['_type', 'code', ...Object.keys(component.fields)].sort(), 'one template field per FieldSpec');
    t.equal(template.code.type, 'code');
    t.equal(template.code.value, '', 'no source code is published');

    for (const [name, spec] of Object.entries(component.fields)) {
      const field = template[name] as Json;
      t.equal(field.name, name, `${name}.name`);
      t.equal(field.display_name, spec.displayName, `${name}.display_name`);
      t.equal(field.type, spec.type, `${name}.type`);
      t.equal(field._input_type, spec.inputClass, `${name}._input_type`);
      t.same(field.value, declaredDefault(spec), `${name}.value`);
      t.equal(field.show, spec.show ?? true, `${name}.show`);
      t.equal(field.advanced, spec.advanced ?? false, `${name}.advanced`);
      t.equal(field.required, spec.required ?? false, `${name}.required`);
      t.equal(field.info, spec.info ?? '', `${name}.info`);
      t.same(field.input_types ?? [], spec.inputTypes ?? [], `${name}.input_types`);
      if (spec.options) t.same(field.options, spec.options, `${name}.options`);
      if (spec.list !== undefined) t.equal(field.list, spec.list, `${name}.list`);
      if (spec.fileTypes) t.same(field.fileTypes, spec.fileTypes, `${name}.fileTypes`);
      if (spec.password !== undefined) t.equal(field.password, spec.password, `${name}.password`);
      if (spec.loadFromDb !== undefined) t.equal(field.load_from_db, spec.loadFromDb, `${name}.load_from_db`);
    }

    t.same(
      (node.outputs as Json[]).map((o) => ({ name: o.name, display_name: o.display_name, types: o.types, method: o.method })),
      component.outputs.map((o) => ({ name: o.name, display_name: o.displayName, types: o.types, method: o.method })),
    );
    for (const output of node.outputs as Json[]) {
      t.equal(output.selected, output.types[0], `${output.name}.selected is its first type`);
      t.equal(output.value, '__UNDEFINED__');
      t.equal(output.cache, true);
      t.equal(output.allows_loop, component.outputs.find((o) => o.name === output.name)?.allowsLoop === true, `${output.name}.allows_loop: a loop edge may come back into it`);
      t.equal(output.tool_mode, true);
    }
    t.same([...node.base_classes].sort(), [...new Set(component.outputs.flatMap((o) => o.types))].sort());
  });
}

