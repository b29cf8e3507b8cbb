/**
 * For running the starters that call hosted services (test-compat/service-starters.test.ts): every service's
 * stand-in started, its base URL and key exported as a deployer would (FLOWSVC_<SERVICE>_BASE_URL and the key's
 * variable in the environment), and a model reply that calls every service tool an agent is offered, once.
 */
import type { RecordedRequest, ScriptedReply } from './model-server.js';
import { SERVICE_CASES } from './service-cases.js';
import type { StandIn } from './service-stand-in.js';

/** The component types of the hosted services (a template holding one needs the service's stand-in to run). */
export const SERVICE_COMPONENT_TYPES = new Set([
  ...SERVICE_CASES.map((service) => service.type),
  'needle',
  'AssemblyAITranscriptionJobCreator',
  'AssemblyAITranscriptionJobPoller',
  'ArXivComponent',
  'YfinanceComponent',
  'YouTubeCommentsComponent',
  'YouTubeTranscripts',
  'RemixDocumentation',
]);

/** The environment variable each service's key is read from when the node names none. */
const KEY_VARIABLES: Record<string, string> = { Tavily: 'TAVILY_API_KEY', AgentQL: 'AGENTQL_API_KEY', ScrapeGraph: 'SCRAPEGRAPH_API_KEY', SearchApi: 'SEARCHAPI_API_KEY', Apify: 'APIFY_API_TOKEN' };

export async function startServiceStandIns(): Promise<Map<string, StandIn>> {
  const standIns = new Map<string, StandIn>();
  for (const service of SERVICE_CASES) {
    const standIn = await service.start();
    standIns.set(service.type, standIn);
    process.env[service.setting] = standIn.url;
    process.env[KEY_VARIABLES[service.name]!] = service.key;
  }
  return standIns;
}

/** Arguments for a service tool, from its parameters (AgentQL's takes a prompt and no query). */
function argumentsFor(tool: { name: string; parameters: { properties?: Record<string, unknown> } }): Record<string, unknown> {
  if (tool.name === 'build_output') return { url: 'https://shop.example/deals', prompt: 'the deals', query: '' };
  const values: Record<string, unknown> = { query: 'flows', input_value: 'flows to Lisbon', user_prompt: 'flows', run_input: '{"queries": "flows"}', url: 'https://youtu.be/vid42' };
  return Object.fromEntries(Object.keys(tool.parameters.properties ?? {}).map((name) => [name, values[name] ?? 'flows']));
}

/** Tavily's and Yahoo! Finance's, AgentQL's, SearchApi's, Apify's and YouTube Transcripts' tools. */
const SERVICE_TOOLS = new Set(['fetch_content_dataframe', 'build_output', 'search', 'get_message_output']);
const isServiceTool = (name: string) => SERVICE_TOOLS.has(name) || name.startsWith('apify_actor_');

/**
 * An agent offered service tools calls each of them once, then answers with what they returned; other requests
 * get `otherwise` (the echo when it returns undefined).
 */
export function serviceToolReply(request: RecordedRequest, otherwise: (request: RecordedRequest) => ScriptedReply | undefined): ScriptedReply | undefined {
  const tools = ((request.body?.tools ?? []) as { function: { name: string; parameters: { properties?: Record<string, unknown> } } }[]).map((tool) => tool.function).filter((tool) => isServiceTool(tool.name));
  const results = ((request.body?.messages ?? []) as { role: string; content: unknown }[]).filter((message) => message.role === 'tool');
  if (tools.length > 0 && results.length === 0) return { toolCalls: tools.map((tool) => ({ name: tool.name, arguments: argumentsFor(tool) })) };
  if (results.length > 0) return { text: `From the tools: ${results.map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content))).join(' || ')}` };
  return otherwise(request);
}
