/**
 * Loops in the engine, through the HTTP edge with Langflow's client, on a flow in the shape of the Research
 * Translation Loop starter against the local model server: each element reaches the model in its own iteration,
 * `done` fires once with every result, builds report each iteration as Langflow's do, traces hold a span per
 * iteration, and the iteration bound, cancellation and the job timeout hold in the middle of a loop.
 */
import t from 'tap';
import { parseNdjson, type BuildEvent } from './support/builds.js';
import { createFlow } from './support/flow-helpers.js';
import { edge, flow, node } from './support/langflow-json.js';
import { LOOP, loopEdge, MODEL, OUTPUT, PARSER, papers, researchLoopFlow } from './support/loop-flows.js';
import { HEADER_KEY, modelClient, startModelStack } from './support/model-flows.js';
import { startTestServer } from './support/server.js';
import { within } from './support/within.js';
import { postWorkflow, stopJob, waitForJob } from './support/workflows.js';

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

/** The build's events, read to the end. */
async function buildEvents(flowId: string, input: string): Promise<BuildEvent[]> {
  const res = await server.request(`/api/v1/build/${flowId}/flow?event_delivery=direct`, { method: 'POST', json: { inputs: { input_value: input } }, ...KEY });
  t.equal(res.status, 200);
  return parseNdjson(await res.text());
}

t.test('a build reports each iteration of the body as Langflow does, then the loop once, then what follows done', async (t) => {
  const created = await createFlow(server, researchLoopFlow('Loop build'));
  const events = await buildEvents(created.id, papers(2));
  const ended = events.filter((e) => e.event === 'end_vertex').map((e) => e.data.build_data.id);
  t.same(ended, ['ChatInput-nr0Vp', 'TypeConverterComponent-papr1', PARSER, MODEL, PARSER, MODEL, LOOP, OUTPUT]);
  const modelBuilds = events.filter((e) => e.event === 'end_vertex' && e.data.build_data.id === MODEL);
  t.same(
    modelBuilds.map((e) => e.data.build_data.data.results.text_output.text),
    ['You said: Title: Paper 1\nSummary: Finding number 1.', 'You said: Title: Paper 2\nSummary: Finding number 2.'],
    "each iteration's build carries that iteration's result",
  );
  const loop = events.find((e) => e.event === 'end_vertex' && e.data.build_data.id === LOOP)!;
  t.match(loop.data.build_data.data.results.item, { data: { count: 2 } }, 'item shows the elements, as Langflow');
  t.equal(events.at(-1)!.event, 'end');
});

t.test('the trace holds one span per iteration of each vertex in the loop, each with its own input', async (t) => {
  const created = await createFlow(server, researchLoopFlow('Loop trace'));
  await modelClient(server).flow(created.id).run(papers(3));
  const { traces } = await (await server.request(`/api/v1/monitor/traces?flow_id=${created.id}`)).json();
  const detail = await (await server.request(`/api/v1/monitor/traces/${traces[0].id}`)).json();
  const names = detail.spans.map((span: any) => span.name);
  t.same(names.filter((n: string) => n === 'Language Model').length, 3);
  t.same(names.filter((n: string) => n === 'Parser').length, 3);
  t.same(names.filter((n: string) => n === 'Loop').length, 1);
  const modelInputs = detail.spans.filter((span: any) => span.name === 'Language Model').map((span: any) => JSON.stringify(span.inputs));
  for (const [n, input] of modelInputs.entries()) t.match(input, `Paper ${n + 1}`, `iteration ${n + 1}'s span has its own input`);
  t.ok(names.indexOf('Loop') > names.lastIndexOf('Language Model') && names.indexOf('Chat Output') > names.indexOf('Loop'), 'spans in the order they ended');
});

t.test('a loop over more elements than the bound fails before its first iteration, naming the loop', async (t) => {
  const created = await createFlow(server, researchLoopFlow('Loop too long'));
  const before = model.chats.length;
  for (const count of [1001, 100_000]) {
    const res = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: papers(count) }, ...KEY });
    t.not(res.status, 200);
    const { detail } = await res.json();
    t.match(detail, `Loop (${LOOP}) has ${count} items to iterate over, more than the 1000 iterations a loop may run here`);
  }
  t.equal(model.chats.length, before, 'no iteration ran');
});

/** A run of a flow that cannot run: its status and detail. */
async function refusal(flowBody: Record<string, unknown>): Promise<{ status: number; detail: string }> {
  const created = await createFlow(server, flowBody);
  const res = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: papers(1) }, ...KEY });
  return { status: res.status, detail: (await res.json()).detail };
}

t.test('loops that cannot run are one clean 400 naming the node, before anything runs', async (t) => {
  const before = model.chats.length;
  const noWayBack = researchLoopFlow('No way back');
  noWayBack.data.edges = noWayBack.data.edges.filter((e: any) => e.data.targetHandle.name !== 'item');
  t.match(await refusal(noWayBack), { status: 400, detail: new RegExp(`Loop Loop \\(${LOOP}\\): its item output feeds Parser \\(${PARSER}\\), but nothing comes back into its item input`) });

  const plainCycle = researchLoopFlow('Cycle with no exit', { edges: [edge(MODEL, 'text_output', PARSER, 'input_data')] });
  plainCycle.data.edges = plainCycle.data.edges.filter((e: any) => !(e.source === LOOP && e.target === PARSER) && e.target !== LOOP);
  t.match(await refusal(plainCycle), { status: 400, detail: /The flow has a cycle with no exit: .*ParserComponent-pXAMb.*LanguageModelComponent-XKvly.*A cycle runs only through a Loop component/ });

  const intoNowhere = researchLoopFlow('Loop edge into nowhere', { edges: [loopEdge(MODEL, 'text_output', 'LoopComponent-gone1')] });
  t.match(await refusal(intoNowhere), { status: 400, detail: `from Language Model (${MODEL}) ends at missing node "LoopComponent-gone1"` });

  const notALoop = researchLoopFlow('Loop edge into a plain output', { edges: [loopEdge(MODEL, 'text_output', PARSER, 'parsed_text')] });
  t.match(await refusal(notALoop), { status: 400, detail: `feeds output "parsed_text" of node ${PARSER} (ParserComponent), which is not a loop output` });

  const twoBack = researchLoopFlow('Two loop edges', { edges: [loopEdge(PARSER, 'parsed_text', LOOP)] });
  t.match(await refusal(twoBack), { status: 400, detail: `Loop Loop (${LOOP}): 2 loop edges come back into its item input` });

  const readsDone = researchLoopFlow('Body reads done', { edges: [edge(LOOP, 'done', MODEL, 'system_message')] });
  t.match(await refusal(readsDone), { status: 400, detail: `Language Model (${MODEL}) is in its body (downstream of item) and also reads its done output` });
  t.equal(model.chats.length, before, 'no model was called');
});

t.test('an empty list runs no iteration: done is an empty table', async (t) => {
  const created = await createFlow(server, researchLoopFlow('Empty loop'));
  const before = model.chats.length;
  const events = await buildEvents(created.id, '[]');
  t.equal(model.chats.length, before);
  const ended = events.filter((e) => e.event === 'end_vertex').map((e) => e.data.build_data.id);
  t.same(ended, ['ChatInput-nr0Vp', 'TypeConverterComponent-papr1', LOOP, OUTPUT], 'the body never ran, what follows done did');
  t.equal(events.at(-1)!.event, 'end');
});

t.test('a stopped v2 job stops in the middle of a loop: the call in flight is aborted, no later iteration starts', async (t) => {
  const created = await createFlow(server, researchLoopFlow('Loop stopped'));
  const before = model.chats.length;
  model.script({ text: 'first' }, { tokens: Array(200).fill('slow '), tokenDelayMs: 50 });
  const first = model.nextChat();
  const job = await (await postWorkflow(server, { flow_id: created.id, background: true, inputs: { 'ChatInput-nr0Vp.input_value': papers(5) }, globals: { [HEADER_KEY]: 'sk-test' } })).json();
  await within(first, 'the first iteration calling the model');
  const second = await within(model.nextChat(), 'the second iteration calling the model');
  t.match(second.body.messages.at(-1).content, 'Paper 2');
  const aborted = model.nextAbort();
  t.equal((await stopJob(server, job.job_id)).status, 200);
  t.ok((await within(aborted, 'the second call aborted')).aborted);
  const after = await waitForJob(server, job.job_id);
  t.match(after, { status: 'cancelled', errors: [{ code: 'JOB_CANCELLED' }] });
  t.equal(model.chats.length - before, 2, 'the third iteration never started');
});

t.test('the job timeout ends a run in the middle of a loop, naming the limit', async (t) => {
  const short = await startTestServer({ JOB_TIMEOUT_SECONDS: '1', FALLBACK_TO_ENV_VAR: 'false' });
  t.teardown(() => short.close());
  const created = await createFlow(short, researchLoopFlow('Loop timed out'));
  const before = model.chats.length;
  // Each echo reply (about ten words) takes ~300 ms: twenty iterations would take six seconds.
  model.tokenDelayMs = 30;
  t.teardown(() => void (model.tokenDelayMs = 0));
  const aborted = model.nextAbort();
  const res = await short.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: papers(20) }, ...KEY });
  t.equal(res.status, 408);
  t.match((await res.json()).detail, 'exceeded 1 seconds');
  await within(aborted, 'the call in flight aborted');
  const asked = model.chats.length - before;
  t.ok(asked >= 2 && asked < 20, `it stopped mid-loop (${asked} of 20 iterations asked the model)`);
});

t.test('an If-Else in the body keeps only the chosen elements: a skipped iteration gives nothing, the next runs again', async (t) => {
  const ROUTER = 'ConditionalRouter-keep1';
  const KEEP = 'TypeConverterComponent-keep1';
  const created = await createFlow(
    server,
    flow(
      'Loop filter',
      [
        node('ChatInput-flt01', 'ChatInput', {}, 'Chat Input'),
        node('TypeConverterComponent-rows1', 'TypeConverterComponent', { output_type: 'DataFrame', auto_parse: true }, 'Rows'),
        node(LOOP, 'LoopComponent', {}, 'Loop'),
        node(ROUTER, 'ConditionalRouter', { operator: 'contains', match_text: 'keep', case_sensitive: true }, 'If-Else'),
        node(KEEP, 'TypeConverterComponent', { output_type: 'Message' }, 'Kept'),
        node(OUTPUT, 'ChatOutput', {}, 'Chat Output'),
      ],
      [
        edge('ChatInput-flt01', 'message', 'TypeConverterComponent-rows1', 'input_data'),
        edge('TypeConverterComponent-rows1', 'dataframe_output', LOOP, 'data'),
        edge(LOOP, 'item', ROUTER, 'input_text'),
        edge(ROUTER, 'true_result', KEEP, 'input_data'),
        loopEdge(KEEP, 'message_output', LOOP),
        edge(LOOP, 'done', OUTPUT, 'input_value'),
      ],
    ),
  );
  const events = await buildEvents(created.id, JSON.stringify([{ text: 'drop 1' }, { text: 'keep 2' }, { text: 'drop 3' }, { text: 'keep 4' }]));
  const ended = events.filter((e) => e.event === 'end_vertex').map((e) => e.data.build_data.id);
  t.same(ended.filter((id: string) => id === ROUTER).length, 4, 'the router ran in every iteration');
  t.same(ended.filter((id: string) => id === KEEP).length, 2, 'what it dropped never reached the body beyond it');
  const done = events.find((e) => e.event === 'end_vertex' && e.data.build_data.id === LOOP)!.data.build_data.data.results.done;
  const text = JSON.stringify(done);
  t.match(text, 'keep 2');
  t.match(text, 'keep 4');
  t.notMatch(text, 'drop');
});
