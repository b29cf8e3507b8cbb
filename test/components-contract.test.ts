/**
 * The contract every registered component keeps (issue 4). It walks COMPONENTS, so a component added later is
 * covered without touching this file: defaults parse, a bad value is refused naming the field, an aborted run
 * settles, a failure reaches the run outcome with node id and type, and /api/v1/all offers a template the editor
 * can render (and our own adapter can load back).
 */
import { folderFiles } from './support/folder-files.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { ComponentDefinition, FieldMap, FieldSpec } from '../src/components/contract.js';
import { COMPONENTS } from '../src/components/registry.js';
import type { GraphVertex } from '../src/engine/graph.js';
import { resolveInputs } from '../src/engine/resolve-inputs.js';
import { variableResolver } from '../src/engine/variables.js';
import { toGraph } from '../src/langflow/to-graph.js';
import { contextFor, PRIVATE_NETWORK_ALLOWED } from './support/component-run.js';
import { graphOf, harness } from './support/engine-harness.js';
import { httpFixture } from './support/http-fixture.js';
import { startTestServer } from './support/server.js';

type Params = Record<string, unknown>;

const dir = mkdtempSync(join(tmpdir(), 'flowsvc-contract-'));
writeFileSync(join(dir, 'note.txt'), 'a note');
const site = await httpFixture({ '/': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok') });
t.teardown(async () => {
  await site.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What components that read files or the network need to do real work (here: a temp file, a local server, reached with private network access allowed). */
const WORKING_PARAMS: Record<string, Params> = {
  File: { path: [join(dir, 'note.txt')] },
  URLComponent: { urls: [`${site.url}/`] },
  APIRequest: { url_input: `${site.url}/` },
};

/** Inputs that make a component fail when no field value can be refused and its defaults run fine. */
const FAILING_PARAMS: Record<string, Params> = {
  CurrentDate: { timezone: 'Mars/Olympus_Mons' },
  Prompt: { template: 'Hello {first name}' },
  CalculatorComponent: { expression: '1/0' },
  OllamaEmbeddings: { base_url: 'not a url' },
  LoopComponent: { data: 42 },
};

/** Components that cannot fail whatever they are given (all text in, text out). */
const CANNOT_FAIL = new Set(['TextInput', 'TextOutput', 'Webhook', 'MergeFlows']);

const BAD_VALUES: unknown[] = [{ not: 'valid' }, 'not-a-valid-choice-☃', -123456.5, [1, 'x'], true];

function vertexOf(component: ComponentDefinition<FieldMap>, params: Params): GraphVertex {
  return { id: `${component.type}-contract`, type: component.type, displayName: component.displayName, component, params, variableFields: new Set(), dynamicFields: [] };
}

/** The first field (and value) the input schemas refuse, with the error they give, if any. */
async function refusedValue(component: ComponentDefinition<FieldMap>): Promise<{ field: string; value: unknown; message: string } | undefined> {
  for (const [field, spec] of Object.entries(component.fields)) {
    for (const value of BAD_VALUES) {
      try {
        await resolveInputs(vertexOf(component, { [field]: value }), {}, undefined, variableResolver({}));
      } catch (error) {
        const message = (error as Error).message;
        if (message.startsWith(`Field "${spec.displayName}" (${field}):`)) return { field, value, message };
      }
    }
  }
  return undefined;
}

/** A field whose value passes whatever it is given: text (coerced), a Message, or a pure handle. */
const coercesAnything = (spec: FieldSpec) => spec.accepts === 'text' || spec.accepts === 'message' || spec.schema.safeParse({ any: 'thing' }).success;

for (const component of COMPONENTS) {
  t.test(`${component.type}`, async (t) => {
    t.test('every field has a default its schema accepts', async (t) => {
      for (const [name, spec] of Object.entries(component.fields)) t.ok(spec.schema.safeParse(undefined).success, `${name} parses a missing value`);
      const resolved = await resolveInputs(vertexOf(component, {}), {}, undefined, variableResolver({}));
      t.same(Object.keys(resolved.inputs), Object.keys(component.fields), 'an empty node resolves to every field');
    });

    t.test('a bad value is refused with the field named', async (t) => {
      const refused = await refusedValue(component);
      if (refused) {
        const spec = component.fields[refused.field]!;
        t.match(refused.message, new RegExp(`^Field "${escape(spec.displayName)}" \\(${escape(refused.field)}\\): .+`), `${refused.field} = ${JSON.stringify(refused.value)}`);
      } else {
        const strict = Object.entries(component.fields).filter(([, spec]) => !coercesAnything(spec)).map(([name]) => name);
        t.same(strict, [], 'no field refuses a value only when every field takes any value by design (text, Message, handle)');
      }
    });

    t.test('an already-aborted run settles instead of hanging', async (t) => {
      const controller = new AbortController();
      controller.abort(new Error('aborted before the start'));
      const { inputs, dynamic } = await resolveInputs(vertexOf(component, WORKING_PARAMS[component.type] ?? {}), {}, undefined, variableResolver({}));
      const context = { ...contextFor(component, { signal: controller.signal, files: folderFiles(dir), network: PRIVATE_NETWORK_ALLOWED }), dynamic };
      const settled = component.run(inputs as never, context).then(
        () => 'returned',
        () => 'threw',
      );
      let guard: NodeJS.Timeout | undefined;
      const hung = new Promise<string>((resolve) => (guard = setTimeout(() => resolve('hung'), 10_000)));
      const outcome = await Promise.race([settled, hung]);
      clearTimeout(guard);
      t.not(outcome, 'hung', `the run ${outcome}`);
    });

    t.test('a failure reaches the run outcome naming the vertex and the component type', async (t) => {
      const engine = harness();
      t.teardown(() => engine.close());
      const refused = await refusedValue(component);
      const attempts: Params[] = [...(refused ? [{ [refused.field]: refused.value }] : []), {}, ...(FAILING_PARAMS[component.type] ? [FAILING_PARAMS[component.type]!] : [])];
      for (const params of attempts) {
        const id = `${component.type}-f4il1`;
        const outcome = await engine.run(graphOf([[id, component, params]], [])).outcome;
        if (outcome.status !== 'failed') continue;
        t.equal(outcome.failure?.vertexId, id, `failed with ${JSON.stringify(params)}`);
        t.equal(outcome.failure?.componentType, component.type);
        t.ok(outcome.failure?.error.message, 'with a message saying why');
        return;
      }
      t.ok(CANNOT_FAIL.has(component.type), 'a component nothing makes fail must be listed in CANNOT_FAIL (else add FAILING_PARAMS for it)');
    });
  });
}

t.test('/api/v1/all offers every component with a template the editor can render', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const catalog = (await (await server.request('/api/v1/all')).json()) as Record<string, Record<string, any>>;
  for (const component of COMPONENTS) {
    const node = catalog[component.category]?.[component.type];
    if (!t.ok(node, `${component.type} is listed under ${component.category}`)) continue;
    t.equal(node.display_name, component.displayName);
    t.equal(node.template._type, 'Component');
    t.same(node.field_order, Object.keys(component.fields));
    for (const [name, spec] of Object.entries(component.fields)) {
      const field = node.template[name];
      t.match(field, { name, display_name: spec.displayName, type: spec.type, _input_type: spec.inputClass, show: Boolean, advanced: Boolean, required: Boolean }, `${component.type}.${name}`);
      t.ok('value' in field, `${component.type}.${name} has a value`);
      if (field.options && field.value !== '' && !Array.isArray(field.value)) t.ok(field.options.includes(field.value), `${component.type}.${name}: the default is one of the options`);
      if (spec.inputTypes?.length) t.same(field.input_types, spec.inputTypes, `${component.type}.${name} takes edges of ${spec.inputTypes.join(', ')}`);
    }
    t.same(
      node.outputs.map((o: { name: string; types: string[]; selected: string; display_name: string }) => [o.name, o.types, o.selected, o.display_name]),
      component.outputs.map((o) => [o.name, o.types, o.types[0], o.displayName]),
      `${component.type} outputs`,
    );
    // The node the editor would drop into a flow loads back through our own adapter.
    const flow = { nodes: [{ id: `${component.type}-xyz12`, type: 'genericNode', data: { id: `${component.type}-xyz12`, type: component.type, node } }], edges: [] };
    t.doesNotThrow(() => toGraph(flow), `${component.type}'s template loads as a flow node`);
  }
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
