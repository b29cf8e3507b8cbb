/**
 * Needle Retriever (`needle`): searches a Needle collection (POST /api/v1/collections/{id}/search on Needle's
 * search host) and answers the question with the passages found, as Langflow's NeedleRetriever-based component.
 * Used as an Agent's tool in the Invoice Summarizer starter.
 */
import { createMessage } from '../../values/message.js';
import { ComponentError } from '../component.error.js';
import { defineComponent, type ComponentContext } from '../contract.js';
import { int, secret, text } from '../fields.js';
import { undici } from '../shared/heavy-modules.js';
import { withToolMode } from '../tools/tool-mode.js';
import type { KeyedServiceInfo } from './service-endpoint.js';
import { ServiceError } from './service-failure.js';
import { callService } from './service-fetch.js';
import { serviceKey } from './service-key.js';

export const NEEDLE: KeyedServiceInfo = { name: 'Needle', setting: 'NEEDLE', defaultBaseUrl: 'https://search.needle-ai.com', keyVariable: 'NEEDLE_API_KEY' };
const KEY_FIELD = { name: 'needle_api_key', displayName: 'Needle API Key' };
/** Langflow asks Needle for at least this many passages, whatever the field says. */
const MIN_TOP_K = 20;

interface Passage {
  content: string;
  [key: string]: unknown;
}

const needleDefinition = defineComponent({
  type: 'needle',
  version: 1,
  displayName: 'Needle Retriever',
  description: 'A retriever that uses the Needle API to search collections.',
  category: 'needle',
  icon: 'Needle',
  fields: {
    needle_api_key: secret({ displayName: 'Needle API Key', info: 'Your Needle API key.', required: true, loadFromDb: false }),
    collection_id: text({ displayName: 'Collection ID', info: 'The ID of the Needle collection.', required: true }),
    query: text({ displayName: 'User Query', info: 'Enter your question here. In tool mode, you can also specify top_k parameter (min: 20).', required: true, toolMode: true }),
    top_k: int({ displayName: 'Top K Results', info: 'Number of search results to return (min: 20).', value: 20, required: true }),
  },
  outputs: [{ name: 'result', displayName: 'Result', types: ['Message'], method: 'run' }],
  heavyModules: () => [undici],
  async run(inputs, ctx) {
    const key = await serviceKey(NEEDLE, inputs.needle_api_key, ctx, KEY_FIELD);
    const collection = inputs.collection_id.trim();
    if (!collection) throw new ComponentError('Field "Collection ID" (collection_id): the Collection ID cannot be empty.');
    const query = inputs.query.trim();
    if (!query) throw new ComponentError('Field "User Query" (query): the query cannot be empty.');
    const topK = Math.max(MIN_TOP_K, inputs.top_k);
    const passages = await search(key, collection, query, topK, ctx);
    const context = passages.map((p, i) => `Document ${i + 1}:\n${p.content}`).join('\n\n');
    const answer = passages.length === 0 ? 'No relevant documents found for the query.' : `Question: ${query}\n\nContext:\n${context}`;
    return { result: createMessage({ text: answer, sender: 'Machine', sender_name: 'AI', session_id: ctx.run.sessionId, flow_id: ctx.run.flowId }) };
  },
});

async function search(key: string, collection: string, query: string, topK: number, ctx: ComponentContext): Promise<Passage[]> {
  const body = (await callService(NEEDLE, { path: `/api/v1/collections/${encodeURIComponent(collection)}/search`, headers: { 'x-api-key': key }, json: { text: query, top_k: topK } }, ctx)) as { result?: unknown };
  if (!Array.isArray(body.result)) throw new ServiceError(`${NEEDLE.name} answered without a "result" list`);
  return body.result.map((item) => ({ ...(item as object), content: String((item as { content?: unknown }).content ?? '') }));
}

export const needle = withToolMode(needleDefinition, (inputs, ctx) => serviceKey(NEEDLE, inputs.needle_api_key, ctx, KEY_FIELD));
