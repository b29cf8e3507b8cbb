/**
 * Apify Actors (Langflow's ApifyActors): runs an Actor (apify-runs.ts) with the node's JSON input and returns its
 * dataset items as Data, picked (`dataset_fields`) and flattened as asked. Its `tool` output is Langflow's
 * `build_tool`: one tool, `apify_actor_<actor>`, whose one argument is the run input as JSON, described from the
 * Actor's README and input schema.
 */
import { createData } from '../../values/data.js';
import type { ToolValue } from '../../values/tool.js';
import { ComponentError } from '../component.error.js';
import { defineComponent, type ComponentContext } from '../contract.js';
import { bool, secret, str, text } from '../fields.js';
import { serviceKey } from '../services/service-key.js';
import { APIFY, latestBuild, runActor } from './apify-runs.js';
import { describeInput, flatten, parseDatasetFields, pickFields } from './apify-shapes.js';

export const apifyActors = defineComponent({
  type: 'ApifyActors',
  version: 1,
  displayName: 'Apify Actors',
  description: 'Use Apify Actors to extract data from hundreds of places fast. This component can be used in a flow to retrieve data or as a tool with an agent.',
  category: 'apify',
  icon: 'Apify',
  fields: {
    apify_token: secret({ displayName: 'Apify Token', info: 'The API token for the Apify account.', required: true }),
    actor_id: str({ displayName: 'Actor', info: "Actor name from Apify store to run. For example 'apify/website-content-crawler' to use the Website Content Crawler Actor.", value: 'apify/website-content-crawler', required: true }),
    run_input: text({
      displayName: 'Run input',
      info: 'The JSON input for the Actor run. For example for the "apify/website-content-crawler" Actor: {"startUrls":[{"url":"https://docs.apify.com/academy/web-scraping-for-beginners"}],"maxCrawlDepth":0}',
      value: '{"startUrls":[{"url":"https://docs.apify.com/academy/web-scraping-for-beginners"}],"maxCrawlDepth":0}',
      multiline: true,
      required: true,
    }),
    dataset_fields: text({ displayName: 'Output fields', info: "Fields to extract from the dataset, split by commas. Other fields will be ignored. Dots in nested structures will be replaced by underscores. Sample input: 'text, metadata.title'.", multiline: true }),
    flatten_dataset: bool({ displayName: 'Flatten output', info: "The output dataset will be converted from a nested format to a flat structure. Dots in nested structure will be replaced by underscores. For example, {'a': {'b': 1}} will be flattened to {'a_b': 1}." }),
  },
  outputs: [
    { name: 'output', displayName: 'Output', types: ['Data'], method: 'run_model' },
    { name: 'tool', displayName: 'Tool', types: ['Tool'], method: 'build_tool' },
  ],
  async run(inputs, ctx) {
    const token = await serviceKey(APIFY, inputs.apify_token, ctx, { name: 'apify_token', displayName: 'Apify Token' });
    const actorId = inputs.actor_id.trim();
    if (!actorId) throw new ComponentError('Field "Actor" (actor_id): name the Actor to run, such as apify/website-content-crawler');
    const outputs: Record<string, unknown> = {};
    if (ctx.requested.has('output')) {
      const fields = inputs.dataset_fields.trim() ? parseDatasetFields(inputs.dataset_fields) : undefined;
      const items = (await runActor(token, actorId, runInputOf(inputs.run_input), ctx)).map((item) => (fields ? pickFields(item, fields) : item));
      outputs.output = items.map((item) => createData(inputs.flatten_dataset ? flatten(item) : item));
    }
    if (ctx.requested.has('tool')) outputs.tool = await actorTool(token, actorId, ctx);
    return outputs;
  },
});

function runInputOf(raw: string): unknown {
  try {
    return JSON.parse(raw || '{}');
  } catch (error) {
    throw new ComponentError(`Field "Run input" (run_input): not JSON (${(error as Error).message})`);
  }
}

async function actorTool(token: string, actorId: string, ctx: ComponentContext): Promise<ToolValue> {
  const { readme, inputSchema } = await latestBuild(token, actorId, ctx);
  return {
    kind: 'tool',
    name: `apify_actor_${actorId.replace(/[^a-zA-Z0-9_-]/g, '_')}`,
    description: `Run an Apify Actor with the given input. Here is a part of the currently loaded Actor README:\n\n${readme.slice(0, 250)}...\n\n`,
    parameters: { type: 'object', properties: { run_input: { type: 'string', description: describeInput(inputSchema) } }, required: ['run_input'], additionalProperties: false },
    async invoke(args, signal) {
      const given = typeof args.run_input === 'string' ? runInputOf(args.run_input) : args.run_input;
      const input = typeof given === 'object' && given !== null && 'run_input' in given ? (given as { run_input: unknown }).run_input : given;
      const items = await runActor(token, actorId, input, { signal, network: ctx.network });
      return items.map((item) => JSON.stringify(item)).join('\n\n');
    },
  };
}
