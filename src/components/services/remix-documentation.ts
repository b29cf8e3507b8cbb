/**
 * RTX Remix Documentation (`RemixDocumentation`, the Nvidia Remix starter's own component): reads the search index
 * of NVIDIA's RTX Remix documentation (searchindex.js, `const searchData = {...};`) and outputs its entries (title,
 * text, url) as a Table and as Data, leaving out the excluded path prefixes. In the starter, FAISS embeds them into
 * a vector store (src/knowledge/); this component only fetches. FLOWSVC_REMIX_DOCS_BASE_URL replaces the
 * documentation's address.
 */
import { createData } from '../../values/data.js';
import { createTable } from '../../values/table.js';
import { defineComponent, type ComponentContext } from '../contract.js';
import { textList } from '../fields.js';
import { undici } from '../shared/heavy-modules.js';
import { endpointOf, type ServiceInfo } from './service-endpoint.js';
import { ServiceError } from './service-failure.js';
import { requestService } from './service-fetch.js';

export const REMIX_DOCS: ServiceInfo = { name: 'The RTX Remix documentation', setting: 'REMIX_DOCS', defaultBaseUrl: 'https://docs.omniverse.nvidia.com/kit/docs/rtx_remix/latest' };
/** The whole documentation's index: larger than an API answer. */
const MAX_INDEX_BYTES = 50 * 1024 * 1024;

interface Entry {
  title: string;
  text: string;
  url: string;
}

export const remixDocumentation = defineComponent({
  type: 'RemixDocumentation',
  version: 1,
  displayName: 'RTX Remix Documentation',
  description: 'Fetch information from the NVIDIA RTX Remix documentation',
  category: 'data',
  icon: 'NVIDIA',
  fields: {
    exclude_paths: textList({
      displayName: 'Exclude Paths',
      info: 'List of path prefixes to exclude from results. Used to filter out sections of the documentation that are not typically relevant to user queries.',
      value: ['source', 'CHANGELOG.html', 'docs/changelog', 'docs/contributing/api.html'],
    }),
  },
  outputs: [
    { name: 'dataframe_output', displayName: 'DataFrame', types: ['DataFrame'], method: 'fetch_documentation_dataframe' },
    { name: 'data_output', displayName: 'Data', types: ['Data'], method: 'fetch_documentation_data' },
  ],
  heavyModules: () => [undici],
  async run(inputs, ctx) {
    const entries = await documentation(inputs.exclude_paths, ctx);
    const outputs: Record<string, unknown> = {};
    if (ctx.requested.has('dataframe_output')) outputs.dataframe_output = createTable(entries.map((e) => ({ ...e })));
    if (ctx.requested.has('data_output')) outputs.data_output = entries.map((e) => createData({ ...e }));
    return outputs;
  },
});

async function documentation(excluded: string[], ctx: Pick<ComponentContext, 'signal' | 'network'>): Promise<Entry[]> {
  const { baseUrl } = endpointOf(REMIX_DOCS);
  const indexUrl = `${baseUrl}/searchindex.js`;
  const script = (await requestService(REMIX_DOCS, { path: '/searchindex.js', maxBytes: MAX_INDEX_BYTES }, ctx)).body;
  const match = /const searchData = (\{[^]*\});/.exec(script);
  if (!match) throw new ServiceError('Could not parse search index data');
  let index: { data?: unknown };
  try {
    index = JSON.parse(match[1]!);
  } catch {
    throw new ServiceError('Could not parse search index data: it is not JSON');
  }
  const items = Array.isArray(index.data) ? (index.data as Record<string, unknown>[]) : [];
  const prefixes = excluded.filter((p) => p !== '');
  const entries: Entry[] = [];
  for (const item of items) {
    const filename = String(item.filename ?? '');
    const text = String(item.content ?? '');
    if (!text || prefixes.some((prefix) => filename.startsWith(prefix))) continue;
    const anchor = String(item.anchor ?? '');
    entries.push({ title: String(item.display_name ?? ''), text, url: `${baseUrl}/${filename}${anchor ? `#${anchor}` : ''}` });
  }
  if (entries.length === 0) return [{ title: 'No documentation found', text: 'No documentation entries were found in the search index', url: indexUrl }];
  return entries;
}
