/**
 * Apify Actors against a local stand-in of Apify's API (FLOWSVC_APIFY_BASE_URL), through the HTTP edge: a run
 * started with the node's input, polled with growing waits until it succeeds, its dataset read, picked and
 * flattened; the tool an Agent gets, described from the Actor's README and input schema; and a run the flow stops
 * waiting for (a cancelled job, the job timeout) aborted at Apify.
 */
import t from 'tap';
import { agentToolFlow, repeatToolResult, toolMessageOf } from './support/agent-tool-flow.js';
import { APIFY_TOKEN, apifyStandIn } from './support/apify-stand-in.js';
import { createFlow } from './support/flow-helpers.js';
import { startModelServer } from './support/model-server.js';
import { modelClient } from './support/model-flows.js';
import { startTestServer } from './support/server.js';
import { chatText, serviceFlow } from './support/service-flows.js';
import { within } from './support/within.js';
import { postWorkflow, stopJob, waitForJob } from './support/workflows.js';

const apify = await apifyStandIn();
const model = await startModelServer();
process.env.FLOWSVC_APIFY_BASE_URL = apify.url;
const server = await startTestServer({ FALLBACK_TO_ENV_VAR: 'false' });
t.teardown(async () => {
  await server.close();
  await model.close();
  await apify.close();
});

const actor = { apify_token: APIFY_TOKEN, actor_id: 'apify/google-search-scraper' };
const runFlow = async (flow: Record<string, unknown>, input: string, on = server) => {
  const created = await createFlow(on, flow);
  const res = await on.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: input } });
  return { status: res.status, body: await res.json() };
};
/** Resolves once the stand-in has seen an abort of some run. */
const nextAbort = async () => {
  const seen = apify.aborted.length;
  while (apify.aborted.length === seen) await new Promise((resolve) => setImmediate(resolve));
  return apify.aborted.at(-1)!;
};

t.test('a run starts with the input, is polled with growing waits, and its items come back picked and flattened', async (t) => {
  apify.pollsBeforeDone = 3;
  const seen = apify.requests.length;
  const flow = serviceFlow('ApifyActors', { ...actor, dataset_fields: "title, 'meta.lang'", flatten_dataset: true }, 'run_input', 'output', '{title} ({meta_lang})');
  const { status, body } = await runFlow(flow, '{"queries": "langflow"}');
  t.equal(status, 200);
  t.same(chatText(body).split('\n'), ['Flows, explained (en)', 'Running flows (en)']);
  const requests = apify.requests.slice(seen);
  t.same(apify.inputs.at(-1), { queries: 'langflow' });
  t.equal(requests[0]!.path, '/v2/acts/apify~google-search-scraper/runs');
  const polls = requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v2/actor-runs/'));
  t.equal(polls.length, 4, 'three RUNNING answers, then SUCCEEDED');
  const gaps = polls.slice(1).map((poll, i) => poll.at - polls[i]!.at);
  t.ok(gaps[2]! > gaps[0]!, `the waits grow (${gaps.join(', ')} ms)`);
  t.match(requests.at(-1)!, { path: /^\/v2\/datasets\/ds-run-\d+\/items$/ });
  t.equal(requests.at(-1)!.query.get('clean'), 'true');
  apify.pollsBeforeDone = 2;
});

t.test('whole items without picking or flattening, and a run input that is not JSON refused before any request', async (t) => {
  const whole = await runFlow(serviceFlow('ApifyActors', actor, 'run_input', 'output', '{url} {meta}'), '{}');
  t.match(chatText(whole.body), /https:\/\/docs\.example\/flows .*"lang": ?"en"/);
  const seen = apify.requests.length;
  const bad = await runFlow(serviceFlow('ApifyActors', actor, 'run_input', 'output'), 'not json');
  t.match(bad.body.detail, /Field "Run input" \(run_input\): not JSON/);
  t.equal(apify.requests.length, seen);
});

t.test('as an Agent tool it is described from the Actor, and the items are the tool result', async (t) => {
  const created = await createFlow(server, agentToolFlow('Apify agent', { id: 'ApifyActors-tool1', type: 'ApifyActors', template: actor }, model.baseURL, 'tool'));
  model.script({ toolCalls: [{ name: 'apify_actor_apify_google-search-scraper', arguments: { run_input: '{"run_input": {"queries": "agents"}}' } }] }, repeatToolResult);
  const before = model.chats.length;
  const reply = await modelClient(server).flow(created.id).run('Find posts about agents');
  const [first, second] = model.chats.slice(before);
  const tool = first!.body.tools[0].function;
  t.match(tool.description, /^Run an Apify Actor with the given input\. Here is a part of the currently loaded Actor README:\n\n# Google Search Scraper/);
  t.match(tool.parameters.properties.run_input.description, /"queries":\{"description":"Search terms, one per line\.","type":"string","prefill":"flows"\}/);
  t.match(tool.parameters.properties.run_input.description, /Required fields:\nqueries$/);
  t.same(apify.inputs.at(-1), { queries: 'agents' }, 'the run_input wrapper is taken off, as Langflow does');
  t.match(toolMessageOf(second!), /^\{"title":"Flows, explained","url":"https:\/\/docs\.example\/flows".*"query":"agents"\}\n\n\{"title":"Running flows"/);
  t.match(reply.chatOutputText(), /^Tool said: /);
});

t.test('stopping the job aborts the Apify run', async (t) => {
  const created = await createFlow(server, serviceFlow('ApifyActors', actor, 'run_input', 'output'));
  const runId = `run-${apify.inputs.length + 1}`;
  const job = await (await postWorkflow(server, { flow_id: created.id, background: true, inputs: { 'ChatInput-in001.input_value': '{"neverFinish": true}' } })).json();
  const aborted = nextAbort();
  await waitForJob(server, job.job_id, (b) => b.status === 'in_progress');
  await within(
    (async () => {
      while (!apify.requests.some((r) => r.method === 'GET' && r.path === `/v2/actor-runs/${runId}`)) await new Promise((resolve) => setImmediate(resolve));
    })(),
    'the run being polled',
  );
  t.equal((await stopJob(server, job.job_id)).status, 200);
  t.equal(await within(aborted, 'the abort reaching Apify'), runId);
  t.match(await waitForJob(server, job.job_id), { status: 'cancelled' });
});

t.test('a run past FLOWSVC_JOB_TIMEOUT_SECONDS stops polling and aborts the Apify run', async (t) => {
  const short = await startTestServer({ FALLBACK_TO_ENV_VAR: 'false', JOB_TIMEOUT_SECONDS: '2' });
  t.teardown(() => short.close());
  const aborted = nextAbort();
  const started = Date.now();
  const { status, body } = await runFlow(serviceFlow('ApifyActors', actor, 'run_input', 'output'), '{"neverFinish": true}', short);
  t.equal(status, 408);
  t.match(body.detail, /exceeded 2 seconds/);
  t.ok(Date.now() - started < 8000, 'it ended at the timeout');
  t.match(await within(aborted, 'the abort reaching Apify'), /^run-\d+$/);
});
