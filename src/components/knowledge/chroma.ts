/**
 * Chroma DB as a local persistent store: Ingest Data is added to the collection (duplicates skipped unless allowed),
 * kept per user by collection name. A Chroma server (`chroma_server_host`) is not reached: such a node is refused.
 */
import { ComponentError } from '../component.error.js';
import { defineComponent } from '../contract.js';
import { bool, choice, int, str } from '../fields.js';
import { withToolMode } from '../tools/tool-mode.js';
import { resultsField, runVectorStore, VECTOR_STORE_OUTPUTS, vectorStoreFields } from './vector-store.js';

export const chroma = withToolMode(
  defineComponent({
    type: 'Chroma',
    version: 1,
    displayName: 'Chroma DB',
    description: 'Chroma Vector Store with search capabilities',
    category: 'vectorstores',
    icon: 'Chroma',
    fields: {
      collection_name: str({ displayName: 'Collection Name', value: 'langflow' }),
      persist_directory: str({ displayName: 'Persist Directory', info: 'Tells collections of one name apart; the data is kept by the service, per user.' }),
      ingest_data: vectorStoreFields.ingest_data,
      search_query: vectorStoreFields.search_query,
      should_cache_vector_store: bool({ displayName: 'Cache Vector Store', advanced: true, value: true }),
      embedding: vectorStoreFields.embedding,
      chroma_server_cors_allow_origins: str({ displayName: 'Server CORS Allow Origins', advanced: true }),
      chroma_server_host: str({ displayName: 'Server Host', advanced: true }),
      chroma_server_http_port: int({ displayName: 'Server HTTP Port', advanced: true }),
      chroma_server_grpc_port: int({ displayName: 'Server gRPC Port', advanced: true }),
      chroma_server_ssl_enabled: bool({ displayName: 'Server SSL Enabled', advanced: true }),
      allow_duplicates: bool({ displayName: 'Allow Duplicates', info: 'If false, will not add documents that are already in the Vector Store.', advanced: true }),
      search_type: choice({ displayName: 'Search Type', options: ['Similarity', 'MMR'] as const, advanced: true }),
      number_of_results: resultsField(10),
      limit: int({ displayName: 'Limit', info: 'Limit the number of records to compare when Allow Duplicates is False.', advanced: true }),
    },
    outputs: VECTOR_STORE_OUTPUTS,
    async run(inputs, ctx) {
      if (inputs.chroma_server_host.trim()) throw new ComponentError('A Chroma server (chroma_server_host) is not supported here: leave it empty to keep the collection in the service');
      const collection = inputs.collection_name.trim() || 'langflow';
      const name = `${inputs.persist_directory}\n${collection}`;
      return runVectorStore({ kind: 'chroma', name, ingest: inputs.ingest_data, embedding: inputs.embedding, query: inputs.search_query, results: inputs.number_of_results, replace: false, skipDuplicates: !inputs.allow_duplicates }, ctx);
    },
  }),
);
