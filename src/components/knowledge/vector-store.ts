/**
 * What the FAISS and Chroma nodes share (Langflow's LCVectorStoreComponent): documents on Ingest Data are written
 * into the node's persistent store, kept per user by the node's name; then a search query finds the nearest. The
 * store is the service's (never the `persist_directory` a flow names, which only tells stores of one name apart).
 */
import { createTable } from '../../values/table.js';
import { isEmbeddings } from '../../values/embeddings.js';
import { ComponentError } from '../component.error.js';
import type { ComponentContext } from '../contract.js';
import { handle, int, text } from '../fields.js';
import { asData, documentsOf } from './documents.js';

export const vectorStoreFields = {
  ingest_data: handle({ displayName: 'Ingest Data', inputTypes: ['Data', 'DataFrame', 'Table'], list: true }),
  search_query: { ...text({ displayName: 'Search Query', info: 'Enter a query to run a similarity search.', toolMode: true }), type: 'query' as const, inputClass: 'QueryInput' },
  embedding: handle({ displayName: 'Embedding', inputTypes: ['Embeddings'] }),
};

export const VECTOR_STORE_OUTPUTS = [
  { name: 'search_results', displayName: 'Search Results', types: ['JSON'], method: 'search_documents' },
  { name: 'dataframe', displayName: 'Table', types: ['Table'], method: 'as_dataframe' },
];

export interface VectorStoreRun {
  kind: 'chroma' | 'faiss';
  /** The store's name for this user: the node's index or collection, with its persist directory. */
  name: string;
  ingest: unknown;
  embedding: unknown;
  query: string;
  results: number;
  replace: boolean;
  skipDuplicates: boolean;
}

export async function runVectorStore(spec: VectorStoreRun, ctx: ComponentContext): Promise<Record<string, unknown>> {
  if (!ctx.knowledge) throw new ComponentError('Vector stores are not available in this run');
  if (!isEmbeddings(spec.embedding)) throw new ComponentError('Field "Embedding" (embedding): connect an embedding model (Embedding Model, OpenAI Embeddings, Ollama Embeddings)');
  const store = ctx.knowledge.vectorStore(spec.kind, spec.name, spec.embedding);
  const documents = documentsOf(spec.ingest);
  if (documents.length > 0) await store.add(documents, { replace: spec.replace, skipDuplicates: spec.skipDuplicates }, ctx.signal);
  const found = spec.query.trim() ? await store.search(spec.query, Math.max(1, spec.results), ctx.signal) : [];
  const data = found.map(asData);
  return { search_results: data, dataframe: createTable(data.map((d) => d.data)) };
}

export const resultsField = (value: number) => int({ displayName: 'Number of Results', info: 'Number of results to return.', advanced: true, value });
