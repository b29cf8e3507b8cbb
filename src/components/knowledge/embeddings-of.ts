/** What the embedding components share: their selection resolved through the one seam, as an Embeddings value. */
import { embeddingsValue, EmbeddingsError } from '../../knowledge/embeddings/embeddings-client.js';
import { resolveEmbeddings, type EmbeddingSelection } from '../../knowledge/embeddings/embedding-resolution.js';
import type { EmbeddingsValue } from '../../values/embeddings.js';
import { ComponentError } from '../component.error.js';
import type { ComponentContext } from '../contract.js';

export async function embeddingsOf(selection: EmbeddingSelection, ctx: ComponentContext): Promise<EmbeddingsValue> {
  try {
    return embeddingsValue(await resolveEmbeddings(selection, ctx.variable, ctx.knowledge?.embeddingDefaults));
  } catch (error) {
    if (error instanceof EmbeddingsError) throw new ComponentError(error.message);
    throw error;
  }
}

/** Langflow's request_timeout is in seconds (0 or empty: the client's default). */
export const timeoutMs = (seconds: unknown): number | undefined => (typeof seconds === 'number' && seconds > 0 ? seconds * 1000 : undefined);
