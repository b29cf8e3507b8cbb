/**
 * ScrapeGraph Search API (Langflow's ScrapeGraphSearchApi): ScrapeGraph's SearchScraper, `POST /v1/searchscraper`,
 * its answer as one Data (as the Python client returns it). An answer still queued or processing is polled at
 * `GET /v1/searchscraper/<request_id>` with backoff until it is done.
 */
import { createData } from '../../values/data.js';
import { ComponentError } from '../component.error.js';
import { defineComponent } from '../contract.js';
import { secret, text } from '../fields.js';
import { pollWithBackoff } from '../services/backoff-poll.js';
import type { KeyedServiceInfo } from '../services/service-endpoint.js';
import { callService } from '../services/service-fetch.js';
import { serviceKey } from '../services/service-key.js';

export const SCRAPEGRAPH: KeyedServiceInfo = { name: 'ScrapeGraph', setting: 'SCRAPEGRAPH', defaultBaseUrl: 'https://api.scrapegraphai.com', keyVariable: 'SCRAPEGRAPH_API_KEY' };

type SearchAnswer = Record<string, unknown> & { request_id?: string; status?: string; error?: string };
const PENDING = new Set(['queued', 'pending', 'processing', 'running']);

export const scrapeGraphSearch = defineComponent({
  type: 'ScrapeGraphSearchApi',
  version: 1,
  displayName: 'ScrapeGraph Search API',
  description: "Given a search prompt, it will return search results using ScrapeGraph's search functionality.",
  category: 'scrapegraph',
  icon: 'ScrapeGraph',
  fields: {
    api_key: secret({ displayName: 'ScrapeGraph API Key', info: 'The API key to use ScrapeGraph API.', required: true }),
    user_prompt: text({ displayName: 'Search Prompt', info: 'The search prompt to use.', toolMode: true }),
  },
  outputs: [{ name: 'data', displayName: 'JSON', types: ['Data'], method: 'search' }],
  async run(inputs, ctx) {
    const apiKey = await serviceKey(SCRAPEGRAPH, inputs.api_key, ctx, { name: 'api_key', displayName: 'ScrapeGraph API Key' });
    const headers = { 'SGAI-APIKEY': apiKey };
    let answer = (await callService(SCRAPEGRAPH, { path: '/v1/searchscraper', headers, json: { user_prompt: inputs.user_prompt } }, ctx)) as SearchAnswer;
    if (PENDING.has(String(answer.status)) && answer.request_id) {
      const path = `/v1/searchscraper/${encodeURIComponent(answer.request_id)}`;
      answer = await pollWithBackoff(
        async () => {
          const polled = (await callService(SCRAPEGRAPH, { path, headers }, ctx)) as SearchAnswer;
          return PENDING.has(String(polled.status)) ? undefined : polled;
        },
        { signal: ctx.signal, what: 'The ScrapeGraph search' },
      );
    }
    if (answer.status === 'failed') throw new ComponentError(`ScrapeGraph could not search: ${answer.error || 'it gave no reason'}`);
    return { data: createData(answer) };
  },
});
