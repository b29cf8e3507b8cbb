/**
 * SearchApi (Langflow's SearchComponent): searchapi.io's `GET /api/v1/search` (as LangChain's SearchApiAPIWrapper
 * calls it), the first `max_results` organic results as a Table with shortened titles and snippets.
 */
import { z } from 'zod';
import { createTable } from '../../values/table.js';
import { defineComponent, type FieldSpec } from '../contract.js';
import { choice, int, secret, text } from '../fields.js';
import type { KeyedServiceInfo } from '../services/service-endpoint.js';
import { callService } from '../services/service-fetch.js';
import { serviceKey } from '../services/service-key.js';

export const SEARCHAPI: KeyedServiceInfo = { name: 'SearchApi', setting: 'SEARCHAPI', defaultBaseUrl: 'https://www.searchapi.io', keyVariable: 'SEARCHAPI_API_KEY' };

type Params = Record<string, unknown>;

/** DictInput with is_list: one object or a list of them, merged into one set of query parameters. */
const searchParams: FieldSpec<Params> = {
  schema: z
    .union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown()))])
    .transform((value): Params => (Array.isArray(value) ? Object.assign({}, ...value) : value))
    .default({}) as unknown as z.ZodType<Params>,
  type: 'dict',
  inputClass: 'DictInput',
  displayName: 'Search parameters',
  accepts: 'any',
  advanced: true,
  list: true,
  value: {},
};

interface OrganicResult {
  title?: string;
  link?: string;
  snippet?: string;
}

export const searchApiSearch = defineComponent({
  type: 'SearchComponent',
  version: 1,
  displayName: 'SearchApi',
  description: 'Calls the SearchApi API with result limiting. Supports Google, Bing and DuckDuckGo.',
  category: 'searchapi',
  icon: 'SearchAPI',
  fields: {
    engine: choice({ displayName: 'Engine', options: ['google', 'bing', 'duckduckgo'] as const, value: 'google' }),
    api_key: secret({ displayName: 'SearchAPI API Key', required: true }),
    input_value: text({ displayName: 'Input', multiline: true, toolMode: true }),
    search_params: searchParams,
    max_results: int({ displayName: 'Max Results', value: 5, min: 0, advanced: true }),
    max_snippet_length: int({ displayName: 'Max Snippet Length', value: 100, min: 0, advanced: true }),
  },
  outputs: [{ name: 'dataframe', displayName: 'Table', types: ['DataFrame'], method: 'fetch_content_dataframe' }],
  async run(inputs, ctx) {
    const apiKey = await serviceKey(SEARCHAPI, inputs.api_key, ctx, { name: 'api_key', displayName: 'SearchAPI API Key' });
    const extra = Object.fromEntries(Object.entries(inputs.search_params).filter(([, value]) => value !== null && value !== undefined).map(([name, value]) => [name, String(value)]));
    const query = { engine: inputs.engine, q: inputs.input_value, ...extra };
    const answer = (await callService(SEARCHAPI, { path: '/api/v1/search', query, headers: { Authorization: `Bearer ${apiKey}` } }, ctx)) as { organic_results?: OrganicResult[] };
    const cut = (value: string | undefined) => (value ?? '').slice(0, inputs.max_snippet_length);
    const rows = (answer.organic_results ?? []).slice(0, inputs.max_results).map((result) => ({ text: result.snippet ?? '', title: cut(result.title), link: result.link ?? '', snippet: cut(result.snippet) }));
    return { dataframe: createTable(rows) };
  },
});
