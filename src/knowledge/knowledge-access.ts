/**
 * What a component sees of knowledge bases (ComponentContext.knowledge): its caller's only. A name that is not one
 * of the caller's knowledge bases is "not found", whoever else may have one of that name.
 */
import type { EmbeddingsValue } from '../values/embeddings.js';
import type { EmbeddingDefaults, VariableLookup } from './embeddings/embedding-resolution.js';
import type { MetadataFilter } from './chunk-filter.js';

export interface RetrieveOptions {
  query: string;
  topK: number;
  includeMetadata: boolean;
  includeEmbeddings: boolean;
  filter: MetadataFilter;
  /** Results less similar than this (cosine, -1..1) are left out; 0 keeps all. */
  scoreThreshold: number;
  /** The node's own key for the knowledge base's embedding provider (else the provider's variable). */
  apiKey?: string;
}

export interface StoredDocument {
  text: string;
  metadata: Record<string, unknown>;
}

export interface FoundDocument extends StoredDocument {
  id: string;
  score: number;
}

/** A FAISS or Chroma node's persistent store, kept per user by the node's index or collection name. */
export interface VectorStoreHandle {
  /** Adds documents (`replace`: instead of what it held); returns how many were written. */
  add(documents: readonly StoredDocument[], options: { replace?: boolean; skipDuplicates?: boolean }, signal: AbortSignal): Promise<number>;
  search(query: string, k: number, signal: AbortSignal): Promise<FoundDocument[]>;
}

export interface KnowledgeAccess {
  /** FLOWSVC_DEFAULT_EMBEDDING_MODEL and the like, for an empty embedding field. */
  readonly embeddingDefaults: EmbeddingDefaults;
  /** Langflow's Knowledge retrieval rows (`content`, `_score`, the chunk's metadata, `_embeddings`). */
  retrieve(name: string, options: RetrieveOptions, variable: VariableLookup, signal: AbortSignal): Promise<Record<string, unknown>[]>;
  /** Knowledge's Ingest mode: rows written into the knowledge base within the run; returns its summary. */
  ingestRows(name: string, rows: readonly StoredDocument[], options: { allowDuplicates: boolean; apiKey?: string }, variable: VariableLookup, signal: AbortSignal): Promise<Record<string, unknown>>;
  vectorStore(kind: 'chroma' | 'faiss', name: string, embeddings: EmbeddingsValue): VectorStoreHandle;
}

/** Every caller's knowledge at once, kept by the service; each run sees it for its own user. */
export interface CallersKnowledge {
  forUser(userId: string): KnowledgeAccess;
}
