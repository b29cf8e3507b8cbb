/** FAISS (Langflow's local vector store): its index rebuilt from Ingest Data at each run that has some, kept per user. */
import { ComponentError } from '../component.error.js';
import { defineComponent } from '../contract.js';
import { bool, str } from '../fields.js';
import { withToolMode } from '../tools/tool-mode.js';
import { resultsField, runVectorStore, VECTOR_STORE_OUTPUTS, vectorStoreFields } from './vector-store.js';

const INDEX_NAME = /^[A-Za-z0-9._-]*[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

export const faiss = withToolMode(
  defineComponent({
    type: 'FAISS',
    version: 1,
    displayName: 'FAISS',
    description: 'FAISS Vector Store with search capabilities',
    category: 'vectorstores',
    icon: 'FAISS',
    fields: {
      index_name: str({ displayName: 'Index Name', value: 'langflow_index' }),
      persist_directory: str({ displayName: 'Persist Directory', info: 'Tells indexes of one name apart; the data is kept by the service, per user.' }),
      ingest_data: vectorStoreFields.ingest_data,
      search_query: vectorStoreFields.search_query,
      should_cache_vector_store: bool({ displayName: 'Cache Vector Store', advanced: true, value: true }),
      allow_dangerous_deserialization: bool({ displayName: 'Allow Dangerous Deserialization', advanced: true }),
      embedding: vectorStoreFields.embedding,
      number_of_results: resultsField(4),
    },
    outputs: VECTOR_STORE_OUTPUTS,
    async run(inputs, ctx) {
      const index = inputs.index_name.trim();
      if (!INDEX_NAME.test(index)) throw new ComponentError('FAISS index name must be a file name, not a path.');
      const name = `${inputs.persist_directory}\n${index}`;
      return runVectorStore({ kind: 'faiss', name, ingest: inputs.ingest_data, embedding: inputs.embedding, query: inputs.search_query, results: inputs.number_of_results, replace: true, skipDuplicates: false }, ctx);
    },
  }),
);
