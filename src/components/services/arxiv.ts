/**
 * arXiv (`ArXivComponent`): searches arXiv's export API (GET /api/query, an Atom feed) and outputs the papers as a
 * Table, one row per paper. As in Langflow, a failed request is a one-row table with an `error` column; the
 * Research Translation Loop starter loops over its rows.
 */
import { createTable } from '../../values/table.js';
import { defineComponent } from '../contract.js';
import { choice, int, text } from '../fields.js';
import { undici } from '../shared/heavy-modules.js';
import { withToolMode } from '../tools/tool-mode.js';
import { papersOf } from './arxiv-atom.js';
import type { ServiceInfo } from './service-endpoint.js';
import { ServiceError } from './service-failure.js';
import { requestService } from './service-fetch.js';

export const ARXIV: ServiceInfo = { name: 'arXiv', setting: 'ARXIV', defaultBaseUrl: 'https://export.arxiv.org' };
const PREFIXES: Record<string, string> = { title: 'ti', abstract: 'abs', author: 'au', cat: 'cat' };
/** arXiv's API answers at most this many entries per request. */
const MAX_RESULTS = 2000;

const arxivDefinition = defineComponent({
  type: 'ArXivComponent',
  version: 1,
  displayName: 'arXiv',
  description: 'Search and retrieve papers from arXiv.org.',
  category: 'arxiv',
  icon: 'arXiv',
  fields: {
    search_query: text({ displayName: 'Search Query', info: "The search query for arXiv papers (e.g., 'quantum computing')", toolMode: true }),
    search_type: choice({ displayName: 'Search Field', info: 'The field to search in', options: ['all', 'title', 'abstract', 'author', 'cat'] }),
    max_results: int({ displayName: 'Max Results', info: 'Maximum number of results to return', value: 10, min: 1 }),
  },
  outputs: [{ name: 'dataframe', displayName: 'Table', types: ['DataFrame'], method: 'search_papers_dataframe' }],
  heavyModules: () => [undici],
  async run(inputs, ctx) {
    const prefix = PREFIXES[inputs.search_type];
    const query = prefix ? `${prefix}:${inputs.search_query}` : inputs.search_query;
    const params = `search_query=${pythonQuote(query)}&max_results=${Math.min(inputs.max_results, MAX_RESULTS)}`;
    try {
      const response = await requestService(ARXIV, { path: `/api/query?${params}` }, ctx);
      return { dataframe: createTable(papersOf(response.body)) };
    } catch (error) {
      if (error instanceof ServiceError) return { dataframe: createTable([{ error: `Request error: ${error.message}` }]) };
      throw error;
    }
  },
});

/** urllib.parse.quote: "/" stays, everything else outside A-Z a-z 0-9 _.-~ is escaped. */
function pythonQuote(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%2F/g, '/');
}

export const arxiv = withToolMode(arxivDefinition);
