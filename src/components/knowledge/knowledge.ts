/**
 * Knowledge (Langflow's unified knowledge component): Retrieve mode searches one of the caller's knowledge bases
 * (search query, top-k, score threshold, metadata filter, metadata and embeddings included or not); Ingest mode
 * writes a table into it within the run (column configuration, duplicates by content hash, a metadata tag).
 * Another user's knowledge base is not found, as through the API.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { parseMetadataFilter } from '../../knowledge/chunk-filter.js';
import type { KnowledgeAccess, StoredDocument } from '../../knowledge/knowledge-access.js';
import { createData } from '../../values/data.js';
import { createTable } from '../../values/table.js';
import { ComponentError } from '../component.error.js';
import { defineComponent, type ComponentContext, type FieldSpec } from '../contract.js';
import { bool, float, handle, int, secret, str, tab, table, text } from '../fields.js';
import { documentsOf } from './documents.js';

const knowledgeBaseField: FieldSpec<string> = { ...str({ displayName: 'Knowledge', info: 'Select the knowledge to load data from.', required: true }), inputClass: 'DropdownInput', options: [], schema: z.preprocess((v) => v ?? '', z.string()) as unknown as z.ZodType<string> };

export const knowledge = defineComponent({
  type: 'Knowledge',
  aliases: ['KnowledgeRetrieval', 'KnowledgeBase', 'KnowledgeIngestion'],
  version: 1,
  displayName: 'Knowledge',
  description: 'Ingest into or retrieve from a Langflow knowledge base.',
  category: 'knowledge',
  icon: 'database',
  fields: {
    knowledge_base: knowledgeBaseField,
    mode: tab({ displayName: 'Mode', options: ['Ingest', 'Retrieve'] as const, value: 'Ingest', toolMode: true }),
    input_df: handle({ displayName: 'Input', info: 'Table with all original columns (already chunked / processed).', inputTypes: ['Message', 'Data', 'JSON', 'DataFrame', 'Table'] }),
    column_config: table({ displayName: 'Column Configuration', value: [{ column_name: 'text', vectorize: true, identifier: true }] }),
    chunk_size: int({ displayName: 'Chunk Size', info: 'Batch size for processing embeddings', advanced: true, value: 1000 }),
    api_key: secret({ displayName: 'Embedding Provider API Key', info: 'Overrides global provider settings. Leave blank to use your pre-configured API Key.', advanced: true }),
    allow_duplicates: bool({ displayName: 'Allow Duplicates', advanced: true }),
    metadata_json: str({ displayName: 'Metadata', info: 'Optional JSON object of user metadata applied to every chunk written by this run.', advanced: true }),
    search_query: text({ displayName: 'Search Query', info: 'Optional search query to filter knowledge base data.', toolMode: true }),
    top_k: int({ displayName: 'Top K Results', info: 'Number of top results to return from the knowledge base.', advanced: true, value: 5 }),
    score_threshold: float({ displayName: 'Score Threshold', info: 'Leave out results less similar than this (cosine similarity, -1 to 1; 0 keeps all).', advanced: true, min: -1, max: 1 }),
    include_metadata: bool({ displayName: 'Include Metadata', value: true }),
    include_embeddings: bool({ displayName: 'Include Embeddings', advanced: true }),
    metadata_filter: text({ displayName: 'Metadata Filter', info: 'Optional JSON object of user-metadata key/value pairs every result must match.', advanced: true }),
  },
  outputs: [
    { name: 'dataframe_output', displayName: 'Results', types: ['JSON'], method: 'build_kb_info' },
    { name: 'retrieve_data', displayName: 'Results', types: ['Table'], method: 'retrieve_data' },
  ],
  async run(inputs, ctx) {
    const access = ctx.knowledge;
    if (!access) throw new ComponentError('Knowledge bases are not available in this run');
    const name = inputs.knowledge_base.trim();
    if (!name) throw new ComponentError('Field "Knowledge" (knowledge_base): choose a knowledge base');
    // Langflow reads any label holding "Retrieve" as retrieve mode (older flows' emoji labels).
    if (String(inputs.mode).includes('Retrieve')) {
      const rows = await access.retrieve(
        name,
        { query: inputs.search_query, topK: Math.max(1, Math.min(1000, inputs.top_k || 5)), includeMetadata: inputs.include_metadata, includeEmbeddings: inputs.include_embeddings, filter: parseMetadataFilter(inputs.metadata_filter), scoreThreshold: inputs.score_threshold, apiKey: inputs.api_key || undefined },
        ctx.variable,
        ctx.signal,
      );
      const results = createTable(rows);
      return { retrieve_data: results, dataframe_output: results };
    }
    const summary = await ingest(access, name, inputs, ctx);
    return { dataframe_output: createData(summary), retrieve_data: createData(summary) };
  },
});

interface IngestInputs {
  input_df: unknown;
  column_config: Record<string, unknown>[];
  allow_duplicates: boolean;
  metadata_json: string;
  api_key: string;
}

async function ingest(access: KnowledgeAccess, name: string, inputs: IngestInputs, ctx: ComponentContext): Promise<Record<string, unknown>> {
  const rows: Record<string, unknown>[] = documentsOf(inputs.input_df).map((document) => ({ text: document.text, ...document.metadata }));
  const config = inputs.column_config.length ? inputs.column_config : [{ column_name: 'text', vectorize: true, identifier: true }];
  const columns = new Set(rows.flatMap((row) => Object.keys(row)));
  for (const { column_name } of config) if (!columns.has(String(column_name)) && rows.length > 0) throw new ComponentError(`Column '${String(column_name)}' not found in DataFrame. Available columns: ${[...columns].sort().join(', ')}`);
  const flag = (value: unknown) => value === true || value === 'True';
  const vectorized = config.filter((c) => flag(c.vectorize)).map((c) => String(c.column_name));
  const identifiers = config.filter((c) => flag(c.identifier)).map((c) => String(c.column_name));
  const tag = metadataTag(inputs.metadata_json);
  const documents: StoredDocument[] = rows.map((row) => {
    const text = vectorized.map((column) => row[column]).filter((v) => v !== undefined && v !== null).join(' ');
    const identity = identifiers.length ? identifiers.map((column) => row[column]).filter((v) => v !== undefined && v !== null).join(' ') : text;
    const metadata: Record<string, unknown> = { _id: createHash('sha256').update(identity).digest('hex') };
    for (const [key, value] of Object.entries(row)) if (!vectorized.includes(key) && value !== undefined && value !== null) metadata[key] = String(value);
    if (tag) metadata.source_metadata = tag;
    return { text, metadata };
  });
  return access.ingestRows(name, documents, { allowDuplicates: inputs.allow_duplicates, apiKey: inputs.api_key || undefined }, ctx.variable, ctx.signal);
}

/** Langflow ignores metadata that is not a JSON object; so does this. */
function metadataTag(raw: string): string {
  if (!raw.trim()) return '';
  try {
    const decoded: unknown = JSON.parse(raw);
    return decoded && typeof decoded === 'object' && !Array.isArray(decoded) ? JSON.stringify(decoded) : '';
  } catch {
    return '';
  }
}
