/**
 * The current starters whose agents call hosted services (Tavily, AgentQL, ScrapeGraph, SearchApi, Apify), uploaded
 * unchanged and run end to end through the Langflow client against local stand-ins of those services and of the
 * model, on a service configured as a deployer would: OPENAI_API_KEY and each service's key in the environment,
 * FLOWSVC_<SERVICE>_BASE_URL pointing at the stand-in. The model calls every service tool it is offered, so each
 * template's services are really called and their answers reach the reply.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LangflowClient } from '@datastax/langflow-client';
import t from 'tap';
import { upload } from '../test/support/flow-helpers.js';
import { startModelServer, type ModelServer, type RecordedRequest } from '../test/support/model-server.js';
import { startTestServer, type TestServer } from '../test/support/server.js';
import { SERVICE_COMPONENT_TYPES, serviceToolReply, startServiceStandIns } from '../test/support/service-starters.js';
import type { StandIn } from '../test/support/service-stand-in.js';
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
t.before(async () => {
  standIns = await startServiceStandIns();
  model = await startModelServer({ fallback: (request) => serviceToolReply(request, (r) => (r.body?.response_format ? { json: jsonFor(r) } : undefined)) });
  process.env.OPENAI_BASE_URL = model.baseURL;
  process.env.OPENAI_API_KEY = 'sk-from-the-environment';
  server = await startTestServer({ FALLBACK_TO_ENV_VAR: 'true' });
});
t.teardown(async () => {
  await server.close();
  await model.close();
  for (const standIn of standIns.values()) await standIn.close();
});

t.test('the templates run here are every current one calling these services', async (t) => {
  const calling = readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .filter((file) => JSON.parse(readFileSync(join(dir, file), 'utf8')).data.nodes.some((n: any) => SERVICE_COMPONENT_TYPES.has(n.data?.type)));
  // Sequential Tasks Agents needs Yahoo Finance as well.
  t.same(calling.filter((file) => !EXPECTED[file]).sort(), ['Sequential Tasks Agents.json']);
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
    const client = new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey });
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
