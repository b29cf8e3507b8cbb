/**
 * The editor's build of a real Langflow export (../shared's Basic Prompting) sent as `data`, against the stand-in
 * OpenAI server: every component builds, and the data's own prompt is what the model is sent.
 */
import t from 'tap';
import { startBuildModelStack, type BuildModelStack } from '../test/support/build-model-stack.js';
import { readBuildStream } from '../test/support/builds.js';
import { starterFlow } from '../test/support/flow-helpers.js';

let stack: BuildModelStack;
t.before(async () => {
  stack = await startBuildModelStack();
});
t.teardown(() => stack.close());

t.test("the editor's build of an exported starter: Basic Prompting sent as `data`, run against the model server", async (t) => {
  const stored = await stack.server.request('/api/v1/variables/', { method: 'POST', json: { name: 'OPENAI_API_KEY', value: 'sk-stored', default_fields: [] } });
  t.equal(stored.status, 201);
  const { nodes, edges } = starterFlow('Basic Prompting').data;
  stack.model.script({ text: 'Start here.' });
  const before = stack.model.chats.length;
  const res = await stack.server.request(`/api/v1/build/${stack.flowId}/flow?event_delivery=direct`, { method: 'POST', json: { inputs: { input_value: 'How do I start?', client_request_time: Date.now() }, data: { nodes, edges } } });
  const events = await readBuildStream(res);
  t.equal(events.at(-1)!.event, 'end');
  t.equal(events.filter((e) => e.event === 'end_vertex').length, nodes.filter((n: any) => n.type === 'genericNode').length, 'every component built');
  t.ok(events.filter((e) => e.event === 'end_vertex').every((e) => e.data.build_data.valid));
  t.match(events.filter((e) => e.event === 'add_message').at(-1)!.data, { sender: 'Machine', text: 'Start here.' });
  t.match(stack.model.chats[before].body.messages[0].content, /^Answer the user as if you were a GenAI expert/, "the data's Prompt is the system message: the data ran, not the stored flow");
});
