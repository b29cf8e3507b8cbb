/**
 * One entry per hosted-service component for the tests every one of them passes (service-failures.test.ts): its
 * stand-in, base-URL setting, a flow running it directly, and how an Agent calls it as a tool.
 */
import type { StandIn } from './service-stand-in.js';
import { serviceFlow } from './service-flows.js';
import { TAVILY_KEY, tavilyStandIn } from './tavily-stand-in.js';

export interface ServiceCase {
  name: string;
  type: string;
  setting: string;
  key: string;
  start(): Promise<StandIn>;
  /** Chat Input -> the component -> Parser -> Chat Output, with this key. */
  flow(key: string): Record<string, unknown>;
  input: string;
  toolTemplate(key: string): Record<string, unknown>;
  toolOutput?: string;
  toolName: string;
  toolArguments: Record<string, unknown>;
}

export const SERVICE_CASES: ServiceCase[] = [
  {
    name: 'Tavily',
    type: 'TavilySearchComponent',
    setting: 'FLOWSVC_TAVILY_BASE_URL',
    key: TAVILY_KEY,
    start: tavilyStandIn,
    flow: (key) => serviceFlow('TavilySearchComponent', { api_key: key }, 'query', 'dataframe'),
    input: 'flows',
    toolTemplate: (key) => ({ api_key: key }),
    toolName: 'fetch_content_dataframe',
    toolArguments: { query: 'flows' },
  },
];
