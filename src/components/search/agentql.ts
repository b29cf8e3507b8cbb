/**
 * Extract Web Data (Langflow's AgentQL): AgentQL's `POST /v1/query-data` with an AgentQL query or a natural-language
 * prompt for a public page; its `data` and `metadata` as one Data. The page is fetched by AgentQL, never by us, so
 * the page URL is not checked against the private-network guard (the request to AgentQL is).
 */
import { createData } from '../../values/data.js';
import { ComponentError } from '../component.error.js';
import { defineComponent } from '../contract.js';
import { bool, choice, int, secret, text } from '../fields.js';
import type { KeyedServiceInfo } from '../services/service-endpoint.js';
import { callService } from '../services/service-fetch.js';
import { serviceKey } from '../services/service-key.js';

export const AGENTQL: KeyedServiceInfo = { name: 'AgentQL', setting: 'AGENTQL', defaultBaseUrl: 'https://api.agentql.com', keyVariable: 'AGENTQL_API_KEY' };

export const agentql = defineComponent({
  type: 'AgentQL',
  version: 1,
  displayName: 'Extract Web Data',
  description: 'Extracts structured data from a web page using an AgentQL query or a Natural Language description.',
  category: 'agentql',
  icon: 'AgentQL',
  fields: {
    api_key: secret({ displayName: 'AgentQL API Key', info: 'Your AgentQL API key from dev.agentql.com', required: true }),
    url: text({ displayName: 'URL', info: 'The URL of the public web page you want to extract data from.', required: true, toolMode: true }),
    query: text({ displayName: 'AgentQL Query', info: 'The AgentQL query to execute. Learn more at https://docs.agentql.com/agentql-query or use a prompt.', multiline: true, toolMode: true }),
    prompt: text({ displayName: 'Prompt', info: 'A Natural Language description of the data to extract from the page. Alternative to AgentQL query.', multiline: true, toolMode: true }),
    is_stealth_mode_enabled: bool({ displayName: 'Enable Stealth Mode (Beta)', info: 'Enable experimental anti-bot evasion strategies. May not work for all websites at all times.', value: false, advanced: true }),
    timeout: int({ displayName: 'Timeout', info: 'Seconds to wait for a request.', value: 900, min: 1, advanced: true }),
    mode: choice({ displayName: 'Request Mode', info: "'standard' uses deep data analysis, while 'fast' trades some depth of analysis for speed.", options: ['fast', 'standard'] as const, value: 'fast', advanced: true }),
    wait_for: int({ displayName: 'Wait For', info: 'Seconds to wait for the page to load before extracting data.', value: 0, min: 0, advanced: true }),
    is_scroll_to_bottom_enabled: bool({ displayName: 'Enable scroll to bottom', info: 'Scroll to bottom of the page before extracting data.', value: false, advanced: true }),
    is_screenshot_enabled: bool({ displayName: 'Enable screenshot', info: "Take a screenshot before extracting data. Returned in 'metadata' as a Base64 string.", value: false, advanced: true }),
  },
  outputs: [{ name: 'data', displayName: 'JSON', types: ['Data'], method: 'build_output' }],
  async run(inputs, ctx) {
    if (!inputs.prompt && !inputs.query) throw new ComponentError('Either Query or Prompt must be provided.');
    if (inputs.prompt && inputs.query) throw new ComponentError("Both Query and Prompt can't be provided at the same time.");
    const apiKey = await serviceKey(AGENTQL, inputs.api_key, ctx, { name: 'api_key', displayName: 'AgentQL API Key' });
    const payload = {
      url: inputs.url,
      query: inputs.query,
      prompt: inputs.prompt,
      params: { mode: inputs.mode, wait_for: inputs.wait_for, is_scroll_to_bottom_enabled: inputs.is_scroll_to_bottom_enabled, is_screenshot_enabled: inputs.is_screenshot_enabled },
      metadata: { experimental_stealth_mode_enabled: inputs.is_stealth_mode_enabled },
    };
    const headers = { 'X-API-Key': apiKey, 'X-TF-Request-Origin': 'langflow' };
    // The node's own timeout (AgentQL's extractions take minutes in standard mode), not the service default.
    const answer = (await callService(AGENTQL, { path: '/v1/query-data', headers, json: payload, timeoutSeconds: inputs.timeout }, ctx)) as { data?: unknown; metadata?: unknown };
    return { data: createData({ result: answer.data ?? null, metadata: answer.metadata ?? null }) };
  },
});
