/**
 * Loops in the engine, through the HTTP edge with Langflow's client, on a flow in the shape of the Research
 * Translation Loop starter against the local model server: each element reaches the model in its own iteration,
 * `done` fires once with every result, builds report each iteration as Langflow's do, traces hold a span per
 * iteration, and the iteration bound, cancellation and the job timeout hold in the middle of a loop.
 */
import t from 'tap';
import { parseNdjson, type BuildEvent } from './support/builds.js';
import { createFlow } from './support/flow-helpers.js';
import { LOOP, MODEL, OUTPUT, PARSER, papers, researchLoopFlow } from './support/loop-flows.js';
import { HEADER_KEY, modelClient, startModelStack } from './support/model-flows.js';

const { model, server, close } = await startModelStack();
t.teardown(close);
const KEY = { headers: { [`X-FLOWSVC-GLOBAL-VAR-${HEADER_KEY}`]: 'sk-from-header' } };

t.test('each paper reaches the model in its own iteration, and done carries every translation, in order', async (t) => {
  const created = await createFlow(server, researchLoopFlow());
  const before = model.chats.length;
  const response = await modelClient(server).flow(created.id).run(papers(3));
  const asked = model.chats.slice(before).map((request) => request.body.messages.at(-1).content);
  t.same(asked, ['Title: Paper 1\nSummary: Finding number 1.', 'Title: Paper 2\nSummary: Finding number 2.', 'Title: Paper 3\nSummary: Finding number 3.']);
  const text = response.chatOutputText() ?? '';
  for (const n of [1, 2, 3]) t.match(text, `You said: Title: Paper ${n}`);
  t.ok(text.indexOf('Paper 1') < text.indexOf('Paper 2') && text.indexOf('Paper 2') < text.indexOf('Paper 3'), 'results in the order of the items');
});
