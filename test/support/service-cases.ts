/**
 * One entry per hosted-service component for the tests every one of them passes (service-failures.test.ts): its
 * stand-in, base-URL setting, a flow running it directly, and how an Agent calls it as a tool.
 */
import type { StandIn } from './service-stand-in.js';
import { serviceFlow } from './service-flows.js';
import { AGENTQL_KEY, agentqlStandIn } from './agentql-stand-in.js';
import { APIFY_TOKEN, apifyStandIn } from './apify-stand-in.js';
import { SCRAPEGRAPH_KEY, scrapegraphStandIn } from './scrapegraph-stand-in.js';
import { SEARCHAPI_KEY, searchapiStandIn } from './searchapi-stand-in.js';
import { TAVILY_KEY, tavilyStandIn } from './tavily-stand-in.js';

export interface ServiceCase {
  name: string;
  type: string;
  setting: string;
  key: string;
  start(): Promise<StandIn>;
  /** Chat Input -> the component -> Parser -> Chat Output, with this key. */
  flow(key: string, extra?: Record<string, unknown>): Record<string, unknown>;
  /** Template values that make the component wait `timeoutSeconds` at most (its own timeout field, if it has one). */
  timeoutTemplate?: Record<string, unknown>;
  input: string;
  toolTemplate(key: string): Record<string, unknown>;
  toolOutput?: string;
  toolName: string;
  toolArguments: Record<string, unknown>;
  /** The tool itself is built from the service's answers (Apify's), so a wrong key fails the run before the model is asked. */
  toolNeedsTheKeyToExist?: boolean;
}

export const SERVICE_CASES: ServiceCase[] = [
  {
    name: 'Tavily',
    type: 'TavilySearchComponent',
    setting: 'FLOWSVC_TAVILY_BASE_URL',
    key: TAVILY_KEY,
    start: tavilyStandIn,
    flow: (key, extra) => serviceFlow('TavilySearchComponent', { api_key: key, ...extra }, 'query', 'dataframe'),
    input: 'flows',
    toolTemplate: (key) => ({ api_key: key }),
    toolName: 'fetch_content_dataframe',
    toolArguments: { query: 'flows' },
  },
  {
    name: 'AgentQL',
    type: 'AgentQL',
    setting: 'FLOWSVC_AGENTQL_BASE_URL',
    key: AGENTQL_KEY,
    start: agentqlStandIn,
    flow: (key, extra) => serviceFlow('AgentQL', { api_key: key, url: 'https://shop.example/', ...extra }, 'prompt', 'data', '{result}'),
    timeoutTemplate: { timeout: 1 },
    input: 'the products',
    toolTemplate: (key) => ({ api_key: key }),
    toolName: 'build_output',
    toolArguments: { url: 'https://shop.example/', prompt: 'the products', query: '' },
  },
  {
    name: 'ScrapeGraph',
    type: 'ScrapeGraphSearchApi',
    setting: 'FLOWSVC_SCRAPEGRAPH_BASE_URL',
    key: SCRAPEGRAPH_KEY,
    start: scrapegraphStandIn,
    flow: (key, extra) => serviceFlow('ScrapeGraphSearchApi', { api_key: key, ...extra }, 'user_prompt', 'data', '{result}'),
    input: 'flows',
    toolTemplate: (key) => ({ api_key: key }),
    toolName: 'search',
    toolArguments: { user_prompt: 'flows' },
  },
  {
    name: 'SearchApi',
    type: 'SearchComponent',
    setting: 'FLOWSVC_SEARCHAPI_BASE_URL',
    key: SEARCHAPI_KEY,
    start: searchapiStandIn,
    flow: (key, extra) => serviceFlow('SearchComponent', { api_key: key, ...extra }, 'input_value', 'dataframe', '{title}'),
    input: 'flights to Lisbon',
    toolTemplate: (key) => ({ api_key: key }),
    toolName: 'fetch_content_dataframe',
    toolArguments: { input_value: 'flights to Lisbon' },
  },
  {
    name: 'Apify',
    type: 'ApifyActors',
    setting: 'FLOWSVC_APIFY_BASE_URL',
    key: APIFY_TOKEN,
    start: apifyStandIn,
    flow: (key, extra) => serviceFlow('ApifyActors', { apify_token: key, actor_id: 'apify/google-search-scraper', ...extra }, 'run_input', 'output', '{title}'),
    input: '{"queries": "flows"}',
    toolTemplate: (key) => ({ apify_token: key, actor_id: 'apify/google-search-scraper' }),
    toolOutput: 'tool',
    toolName: 'apify_actor_apify_google-search-scraper',
    toolArguments: { run_input: '{"queries": "flows"}' },
    toolNeedsTheKeyToExist: true,
  },
];
