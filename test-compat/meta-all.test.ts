/** The checks of test/meta-all.test.ts that run parts of the real Langflow exports in ../shared/langflow-starters. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import type { FieldSpec } from '../src/components/contract.js';
import { COMPONENTS } from '../src/components/registry.js';
import { startTestServer, type TestServer } from '../test/support/server.js';

type Json = Record<string, any>;

import { startersDir } from '../test/support/shared.js';

function starterNode(file: string, type: string): Json {
  const flow = JSON.parse(readFileSync(join(startersDir(), file), 'utf8')) as Json;
  const node = (flow.data.nodes as Json[]).find((n) => n.data?.type === type);
  if (!node) throw new Error(`${file} has no ${type} node`);
  return node.data.node as Json;
}

function declaredDefault(spec: FieldSpec): unknown {
  if (spec.value !== undefined) return spec.value;
  const parsed = spec.schema.safeParse(undefined);
  return parsed.success && parsed.data !== undefined ? parsed.data : '';
}

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

t.test('ChatInput has the fields and field types of Langflow\'s ChatInput (Basic Prompting starter)', async (t) => {
  const starter = starterNode('Basic Prompting.json', 'ChatInput').template as Json;
  const ours = catalog.input_output.ChatInput.template as Json;
  t.same(Object.keys(ours).sort(), Object.keys(starter).sort());
  for (const [name, field] of Object.entries(starter)) {
    if (name === '_type') t.equal(ours._type, field);
    else t.equal(ours[name].type, (field as Json).type, `${name}.type`);
  }
});

// A node from /all must be usable wherever Langflow would put one of its own: every key a Langflow export has,
// ours has too, holding the same kind of value. Fields whose input class differs from the export's are skipped:
// the export may predate a change of class in Langflow (ChatOutput.input_value became a HandleInput in 1.6).
for (const type of ['ChatInput', 'ChatOutput']) {
  t.test(`${type} node has the keys and value kinds of Langflow's (Basic Prompting starter)`, async (t) => {
    const starter = starterNode('Basic Prompting.json', type);
    const ours = catalog.input_output[type] as Json;
    // lf_version is stamped by the editor when it saves a flow, never sent by /all.
    for (const key of Object.keys(starter).filter((k) => k !== 'lf_version')) t.equal(kind(ours[key]), kind(starter[key]), `node.${key}`);

    for (const [name, field] of Object.entries(starter.template as Json)) {
      if (name === '_type') continue;
      const mine = ours.template[name] as Json | undefined;
      if (!mine) continue; // fields the starter has and our component does not are covered by the field-name test
      if (field._input_type && field._input_type !== mine._input_type) continue;
      for (const key of Object.keys(field)) t.equal(kind(mine[key]), kind(field[key]), `${name}.${key}`);
    }

    const starterOutput = (starter.outputs as Json[])[0]!;
    const ourOutput = (ours.outputs as Json[])[0]!;
    for (const key of Object.keys(starterOutput)) t.equal(kind(ourOutput[key]), kind(starterOutput[key]), `outputs[0].${key}`);
  });
}
