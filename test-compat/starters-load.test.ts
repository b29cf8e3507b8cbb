import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { planRun } from '../src/engine/plan.js';
import { toGraph } from '../src/langflow/to-graph.js';
import { startersDir } from '../test/support/shared.js';

const files = [
  ...readdirSync(startersDir()).filter((f) => f.endsWith('.json')),
  ...readdirSync(join(startersDir(), 'v1.8.0-dev')).map((f) => join('v1.8.0-dev', f)),
];

t.test('every starter export loads into a graph and schedules', async (t) => {
  t.equal(files.length, 11, 'six 1.6 exports and five 1.8-dev exports');
  for (const file of files) {
    const exported = JSON.parse(readFileSync(join(startersDir(), file), 'utf8'));
    const graph = toGraph(exported.data);
    const components = exported.data.nodes.filter((n: any) => n.type === 'genericNode').length;
    t.equal(graph.vertices.size, components, `${file}: every component node became a vertex (notes skipped)`);
    t.equal(graph.edges.length, exported.data.edges.length, `${file}: every edge was understood`);
    const plan = planRun(graph);
    t.equal(plan.region.size, components, `${file}: everything is scheduled`);
    t.ok(plan.layers[0].length > 0, `${file}: it has a first layer`);
  }
});
