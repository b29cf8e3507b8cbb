/**
 * The current starters that call hosted services (Tavily, AgentQL, ScrapeGraph, SearchApi, Apify, Needle,
 * AssemblyAI, ...), uploaded unchanged and run end to end through the Langflow client against local stand-ins of
 * those services and of the model, on a service configured as a deployer would: OPENAI_API_KEY and each service's
 * key in the environment, FLOWSVC_<SERVICE>_BASE_URL pointing at the stand-in, private networks refused (each
 * stand-in is reached as its service's configured base URL). Where an agent holds the services, the model calls
 * every service tool it is offered, so each template's services are really called and their answers reach the
 * reply. Only what the user must feed (an audio file) is tweaked.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LangflowClient } from '@datastax/langflow-client';
import t from 'tap';
import { ASSEMBLYAI_KEY, startAssemblyStandIn, type AssemblyStandIn } from '../test/support/assemblyai-stand-in.js';
import { starterFlow, upload } from '../test/support/flow-helpers.js';
import { startModelServer, type ModelServer, type RecordedRequest } from '../test/support/model-server.js';
import { startArxivStandIn } from '../test/support/arxiv-stand-in.js';
import { NEEDLE_KEY, startNeedleStandIn, type NeedleStandIn } from '../test/support/needle-stand-in.js';
import { startYfinanceStandIn } from '../test/support/yfinance-stand-in.js';
import { YOUTUBE_KEY, youtubeApiRoutes } from '../test/support/youtube-stand-in.js';
import { youtubeWebRoutes } from '../test/support/youtube-web-stand-in.js';
import { startTestServer, type TestServer } from '../test/support/server.js';
import { SERVICE_COMPONENT_TYPES, serviceToolReply, startServiceStandIns } from '../test/support/service-starters.js';
import { startServiceStandIn, type ServiceStandIn, type StandIn } from '../test/support/service-stand-in.js';
import { startersDir } from '../test/support/shared.js';

const dir = join(startersDir(), 'current');

/** Each template this runs, and the text of each of its services' stand-in answers its reply must carry. */
const EXPECTED: Record<string, string[]> = {
  'Instagram Copywriter.json': ['Flows are graphs of components'],
  'Market Research.json': ['Flows are graphs of components'],
  'Research Agent.json': ['Flows are graphs of components'],
  'Price Deal Finder.json': ['Flows are graphs of components', 'Flow kit'],
  'News Aggregator.json': ['Flow kit'],
  'Search agent.json': ['Found about: flows'],
  'Social Media Agent.json': ['Flows, explained'],
  'Travel Planning Agents.json': ['Result 1 for flows to Lisbon'],
};

/** A JSON document in the shape a structured-output request asks for (Market Research's Structured Output). */
function jsonFor(request: RecordedRequest) {
  const row = request.body.response_format?.json_schema?.schema?.properties?.objects?.items?.properties ?? {};
  return { objects: [Object.fromEntries(Object.keys(row).map((key) => [key, `some ${key}`]))] };
}

let model: ModelServer;
let server: TestServer;
let standIns: Map<string, StandIn>;
let needle: NeedleStandIn;
let assembly: AssemblyStandIn;
let arxiv: ServiceStandIn;
let youtube: ServiceStandIn;
let yfinance: ServiceStandIn;
let client: LangflowClient;
const restore: (() => void)[] = [];
t.before(async () => {
  standIns = await startServiceStandIns();
  needle = await startNeedleStandIn();
  assembly = await startAssemblyStandIn();
  // YouTube's API and its web pages share FLOWSVC_YOUTUBE_BASE_URL (as a gateway for both would): one stand-in serves both.
  youtube = await startServiceStandIn({ ...youtubeApiRoutes(3), ...youtubeWebRoutes(() => youtube.url) });
  [arxiv, yfinance] = await Promise.all([startArxivStandIn(), startYfinanceStandIn()]);
  restore.push(...[needle.setBaseUrl('FLOWSVC_NEEDLE_BASE_URL'), assembly.setBaseUrl('FLOWSVC_ASSEMBLYAI_BASE_URL'), arxiv.setBaseUrl('FLOWSVC_ARXIV_BASE_URL')]);
  restore.push(yfinance.setBaseUrl('FLOWSVC_YFINANCE_BASE_URL'), youtube.setBaseUrl('FLOWSVC_YOUTUBE_BASE_URL'));
  process.env.YOUTUBE_API_KEY = YOUTUBE_KEY;
  model = await startModelServer({ fallback: (request) => serviceToolReply(request, (r) => (r.body?.response_format ? { json: jsonFor(r) } : undefined)) });
  Object.assign(process.env, { OPENAI_BASE_URL: model.baseURL, OPENAI_API_KEY: 'sk-from-the-environment', NEEDLE_API_KEY: NEEDLE_KEY, ASSEMBLYAI_API_KEY: ASSEMBLYAI_KEY });
  server = await startTestServer({ FALLBACK_TO_ENV_VAR: 'true', ALLOW_PRIVATE_NETWORK: 'false' });
  client = new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey });
});
t.teardown(async () => {
  restore.forEach((undo) => undo());
  await server.close();
  await Promise.all([model.close(), needle.close(), assembly.close(), arxiv.close(), youtube.close(), yfinance.close()]);
  for (const standIn of standIns.values()) await standIn.close();
});

/** Templates run by their own tests below, each with what it needs of its services. */
const OWN_TESTS = ['Sequential Tasks Agents.json', 'Invoice Summarizer.json', 'Meeting Summary.json', 'Research Translation Loop.json', 'Youtube Analysis.json', 'Nvidia Remix.json'];

t.test('the templates run here are every current one calling these services', async (t) => {
  const calling = readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .filter((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')).data.nodes.some((n: any) => SERVICE_COMPONENT_TYPES.has(n.data?.type)));
  t.same(calling.filter((file) => !EXPECTED[file] && !OWN_TESTS.includes(file)), [], 'each is run here');
  t.equal(calling.length, 14);
});

for (const [file, expected] of Object.entries(EXPECTED)) {
  t.test(`${file} runs end to end, its agent calling its services`, async (t) => {
    const flow = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    const res = await upload(server, '/api/v1/flows/upload/', JSON.stringify(flow), file);
    t.equal(res.status, 201);
    const [created] = await res.json();
    t.notOk('unsupported_nodes' in created, 'every node runs here');
    const types = new Set<string>(flow.data.nodes.map((n: any) => n.data?.type));
    const seen = new Map([...standIns].map(([type, standIn]) => [type, standIn.requests.length]));
    const before = model.chats.length;
    const reply = await client.flow(created.id).run('Tell me about flows');
    t.ok(reply.outputs.length > 0, 'it answered');
    for (const [type, standIn] of standIns) {
      if (types.has(type)) t.ok(standIn.requests.length > seen.get(type)!, `${type} was called`);
    }
    const toolTurns = model.chats.slice(before).filter((call) => call.body.messages?.some((m: { role: string }) => m.role === 'tool'));
    const toolText = toolTurns.map((call) => JSON.stringify(call.body.messages)).join('\n');
    for (const text of expected) t.match(toolText, text, `the model read back: ${text}`);
    t.notMatch(toolText, /refused|did not answer|not found/, 'no tool failed');
  });
}

async function uploadStarter(name: string): Promise<{ id: string; flow: any }> {
  const flow = starterFlow(`current/${name}`);
  const res = await upload(server, '/api/v1/flows/upload/', JSON.stringify(flow), `${name}.json`);
  const [created] = await res.json();
  if (res.status !== 201 || 'unsupported_nodes' in created) throw new Error(`${name}: ${res.status} ${JSON.stringify(created.unsupported_nodes)}`);
  return { id: created.id, flow };
}

const nodeId = (flow: any, type: string): string => flow.data.nodes.find((n: any) => n.data.type === type).id;
const toolMessage = (request: RecordedRequest) => request.body.messages.find((m: { role: string }) => m.role === 'tool');

t.test('Invoice Summarizer: the Agent searches the Needle collection through its tool and answers from it', async (t) => {
  const { id } = await uploadStarter('Invoice Summarizer');
  const before = needle.seen.length;
  model.script({ toolCalls: [{ name: 'run', arguments: { query: 'total of invoice 42' } }] }, (request) => ({ text: `Summary: ${toolMessage(request)?.content}` }));
  const reply = await client.flow(id).run('Summarize invoice 42');
  const [search] = needle.seen.slice(before);
  t.equal(search!.path, `/api/v1/collections/${encodeURIComponent('<ENTER YOUR COLLECTION ID>')}/search`, 'the collection as shipped');
  t.equal(search!.headers['x-api-key'], NEEDLE_KEY, 'NEEDLE_API_KEY from the environment');
  t.same(search!.json(), { text: 'total of invoice 42', top_k: 20 });
  t.match(reply.chatOutputText(), /^Summary: [^]*total 1200 EUR/);
});

t.test('Meeting Summary: the uploaded recording is transcribed, polled, parsed and summarized', async (t) => {
  const { id, flow } = await uploadStarter('Meeting Summary');
  const form = new FormData();
  form.append('file', new Blob(['the quarterly planning meeting'], { type: 'audio/mpeg' }), 'meeting.mp3');
  const audio = (await (await server.request('/api/v2/files', { method: 'POST', body: form })).json()).path;
  const before = model.chats.length;
  const reply = await client.flow(id).run('What was decided?', { tweaks: { [nodeId(flow, 'AssemblyAITranscriptionJobCreator')]: { audio_file: audio } } as never });
  t.equal(assembly.uploads.at(-1)!.toString(), 'the quarterly planning meeting', 'the recording went to AssemblyAI');
  t.match([...assembly.jobs.values()].at(-1)!.request, { speaker_labels: true, speech_model: 'best' }, 'the node\'s options as shipped');
  const texts = reply.outputs.flatMap((o: any) => o.outputs.map((out: any) => String(out.results?.message?.text ?? '')));
  t.ok(texts.some((text) => text.includes('Transcript of the quarterly planning meeting')), 'the parsed transcript reaches its Chat Output');
  const prompts = model.chats.slice(before).map((call) => JSON.stringify(call.body.messages));
  t.ok(prompts.some((p) => p.includes('Transcript of the quarterly planning meeting')), 'and the summary model reads it');
});

t.test('Sequential Tasks Agents: Tavily (with the OpenAI key the template names) and Yahoo! Finance are called by their agents; its last agent ships with no message', async (t) => {
  const { id } = await uploadStarter('Sequential Tasks Agents');
  const tavily = standIns.get('TavilySearchComponent')!;
  const [searches, quotes, before] = [tavily.requests.length, yfinance.seen.length, model.chats.length];
  const res = await server.request(`/api/v1/run/${id}`, { method: 'POST', json: { input_value: 'Should I buy flows?' } });
  t.ok(tavily.requests.length > searches, 'the research agent searched with Tavily');
  t.equal(yfinance.seen.slice(quotes).find((r) => r.path === '/v1/finance/search')?.query.get('q'), 'flows', 'the finance agent asked Yahoo! Finance');
  const toolText = model.chats.slice(before).map((call) => JSON.stringify(call.body.messages)).join('\n');
  // The template's Tavily node names the OPENAI_API_KEY variable as its key, so Tavily refuses it; as a tool's
  // failure, that goes back to the model and the run goes on.
  t.match(toolText, 'Tavily refused the API key (401): Invalid API key', 'the research agent\'s model read Tavily\'s refusal');
  t.match(toolText, 'flows news 1', 'the finance agent\'s model read the news');
  // The third agent (Agent-X1iAT) has only a system prompt: its input_value is empty in the template and no edge
  // feeds it, so it stops the run as an Agent with no message does.
  t.same([res.status, await res.json()], [500, { detail: 'Error running graph: Error building Component Agent (Agent-X1iAT): The message you want to send to the agent is empty (input_value).' }]);
});

t.test('Research Translation Loop: arXiv\'s papers for the question, each through the loop\'s model, then all of them', async (t) => {
  const { id } = await uploadStarter('Research Translation Loop');
  const [searches, before] = [arxiv.seen.length, model.chats.length];
  const reply = await client.flow(id).run('graph flows');
  const [search] = arxiv.seen.slice(searches);
  t.same([search!.query.get('search_query'), search!.query.get('max_results')], ['graph flows', '3'], 'the question and max_results as shipped');
  const calls = model.chats.slice(before).map((call) => JSON.stringify(call.body.messages));
  t.equal(calls.length, 3, 'the model once per paper');
  for (const i of [1, 2, 3]) t.ok(calls.some((c) => c.includes(`Paper ${i} on graph flows`)), `paper ${i} reached the model`);
  t.match(reply.chatOutputText(), /Paper 1 on graph flows[^]*Paper 3 on graph flows/, 'the loop\'s results reach the chat');
});

t.test('Youtube Analysis: the video\'s comments through Batch Run, then an agent reading the transcript through its tool', async (t) => {
  const { id } = await uploadStarter('Youtube Analysis');
  const [seen, before] = [youtube.seen.length, model.chats.length];
  const reply = await client.flow(id).run('https://youtu.be/vid42');
  const asked = youtube.seen.slice(seen);
  t.equal(asked.find((r) => r.path === '/youtube/v3/commentThreads')?.query.get('videoId'), 'vid42', 'the comments of the video given');
  t.ok(asked.some((r) => r.path === '/api/timedtext'), 'and its captions, through the agent\'s tool');
  const calls = model.chats.slice(before).map((call) => JSON.stringify(call.body.messages));
  const batch = calls.filter((c) => c.includes('You are a sentiment analysis AI'));
  t.same(batch.map((c) => /comment (\d)/.exec(c)?.[1]), ['0', '1', '2'], 'Batch Run asked the model once per comment row');
  t.ok(calls.some((c) => c.includes('"role":"tool"') && c.includes('Welcome & hello')), 'the transcript reached the agent\'s model');
  t.ok((reply.chatOutputText() ?? '').length > 0, 'it answered');
});

t.test('Nvidia Remix: its MCP Tools node names no server, so the run fails naming that node and field', async (t) => {
  const { id } = await uploadStarter('Nvidia Remix');
  const res = await server.request(`/api/v1/run/${id}`, { method: 'POST', json: { input_value: 'How do I lock a layer?' } });
  // The template ships MCP Tools with `mcp_server: {}`: in Langflow the user picks a server they added to their
  // project, and this service keeps no MCP servers, so the node has nothing to connect to.
  t.same([res.status, await res.json()], [
    500,
    { detail: 'Error running graph: Error building Component MCP Connection (MCPTools-rIgsP): Field "MCP Server" (mcp_server): no MCP server is chosen; set {name, config: {url}} or {name, config: {command, args}}' },
  ]);
});
