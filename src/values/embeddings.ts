/**
 * Embeddings: what an embedding component's `embeddings` output carries to a vector store (FAISS, Chroma) or the
 * Knowledge component: which model, where, and a function that embeds texts. The API key lives only inside
 * `embed`, so the value serialises without its secret.
 */
export interface EmbeddingsValue {
  kind: 'embeddings';
  provider: string;
  model: string;
  baseURL: string;
  /** Vectors of this many dimensions were asked for (the model's own size when absent). */
  dimensions?: number;
  /** Unit-length vectors, one per text, in order. */
  embed(texts: readonly string[], signal: AbortSignal): Promise<Float32Array[]>;
}

export const isEmbeddings = (value: unknown): value is EmbeddingsValue =>
  typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'embeddings';
