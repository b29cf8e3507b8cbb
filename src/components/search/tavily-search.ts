/**
 * Tavily Search (Langflow's TavilySearchComponent): `POST /search` of Tavily's API, its results as a Table (the
 * answer first when asked for, one row per result, the images last), as Langflow's `fetch_content_dataframe`.
 * The starters hand it to an Agent in tool mode, the query being the tool's one argument.
 */
import { createTable } from '../../values/table.js';
import { defineComponent } from '../contract.js';
import { bool, choice, int, secret, str, text } from '../fields.js';
import { callService } from '../services/service-fetch.js';
import type { KeyedServiceInfo } from '../services/service-endpoint.js';
import { serviceKey } from '../services/service-key.js';

export const TAVILY: KeyedServiceInfo = { name: 'Tavily', setting: 'TAVILY', defaultBaseUrl: 'https://api.tavily.com', keyVariable: 'TAVILY_API_KEY' };

interface TavilyAnswer {
  answer?: string | null;
  results?: { title?: string; url?: string; content?: string; score?: number; raw_content?: string | null }[];
  images?: unknown[];
}

const domains = (list: string) => list.split(',').map((domain) => domain.trim()).filter(Boolean);

export const tavilySearch = defineComponent({
  type: 'TavilySearchComponent',
  version: 1,
  displayName: 'Tavily Search API',
  description: '**Tavily Search** is a search engine optimized for LLMs and RAG,         aimed at efficient, quick, and persistent search results.',
  category: 'tavily',
  icon: 'TavilyIcon',
  fields: {
    api_key: secret({ displayName: 'Tavily API Key', info: 'Your Tavily API Key.', required: true }),
    query: text({ displayName: 'Search Query', info: 'The search query you want to execute with Tavily.', toolMode: true }),
    search_depth: choice({ displayName: 'Search Depth', info: 'The depth of the search.', options: ['basic', 'advanced'] as const, value: 'advanced', advanced: true }),
    chunks_per_source: int({ displayName: 'Chunks Per Source', info: 'The number of content chunks to retrieve from each source (1-3). Only works with advanced search.', value: 3, advanced: true }),
    topic: choice({ displayName: 'Search Topic', info: 'The category of the search.', options: ['general', 'news'] as const, value: 'general', advanced: true }),
    days: int({ displayName: 'Days', info: 'Number of days back from current date to include. Only available with news topic.', value: 7, advanced: true }),
    max_results: int({ displayName: 'Max Results', info: 'The maximum number of search results to return.', value: 5, advanced: true }),
    include_answer: bool({ displayName: 'Include Answer', info: 'Include a short answer to original query.', value: true, advanced: true }),
    time_range: str({ displayName: 'Time Range', info: 'The time range back from the current date to filter results.', options: ['day', 'week', 'month', 'year'], value: '', advanced: true }),
    include_images: bool({ displayName: 'Include Images', info: 'Include a list of query-related images in the response.', value: true, advanced: true }),
    include_domains: text({ displayName: 'Include Domains', info: 'Comma-separated list of domains to include in the search results.', advanced: true }),
    exclude_domains: text({ displayName: 'Exclude Domains', info: 'Comma-separated list of domains to exclude from the search results.', advanced: true }),
    include_raw_content: bool({ displayName: 'Include Raw Content', info: 'Include the cleaned and parsed HTML content of each search result.', value: false, advanced: true }),
  },
  outputs: [{ name: 'dataframe', displayName: 'Table', types: ['DataFrame'], method: 'fetch_content_dataframe' }],
  async run(inputs, ctx) {
    const apiKey = await serviceKey(TAVILY, inputs.api_key, ctx, { name: 'api_key', displayName: 'Tavily API Key' });
    // The request Langflow's component sends, field for field.
    const payload: Record<string, unknown> = {
      api_key: apiKey,
      query: inputs.query,
      search_depth: inputs.search_depth,
      topic: inputs.topic,
      max_results: inputs.max_results,
      include_images: inputs.include_images,
      include_answer: inputs.include_answer,
      include_raw_content: inputs.include_raw_content,
      days: inputs.days,
      time_range: inputs.time_range || null,
    };
    if (domains(inputs.include_domains).length > 0) payload.include_domains = domains(inputs.include_domains);
    if (domains(inputs.exclude_domains).length > 0) payload.exclude_domains = domains(inputs.exclude_domains);
    if (inputs.search_depth === 'advanced' && inputs.chunks_per_source) payload.chunks_per_source = inputs.chunks_per_source;
    const answer = (await callService(TAVILY, { path: '/search', json: payload }, ctx)) as TavilyAnswer;
    const rows: Record<string, unknown>[] = [];
    if (inputs.include_answer && answer.answer) rows.push({ text: answer.answer });
    for (const result of answer.results ?? []) {
      const row: Record<string, unknown> = { text: result.content ?? '', title: result.title ?? null, url: result.url ?? null, content: result.content ?? '', score: result.score ?? null };
      if (inputs.include_raw_content) row.raw_content = result.raw_content ?? null;
      rows.push(row);
    }
    if (inputs.include_images && answer.images?.length) rows.push({ text: 'Images found', images: answer.images });
    return { dataframe: createTable(rows) };
  },
});
