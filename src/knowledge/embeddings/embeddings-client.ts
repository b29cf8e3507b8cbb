/**
 * Embeddings over the OpenAI-compatible API (`POST <base>/embeddings`), which OpenAI, Ollama (`/v1`), LocalAI, vLLM
 * and TEI all serve: texts go in batches, each call bounded in time and retried on 429 and 5xx; every vector that
 * comes back is checked (count, dimensions, finite numbers) and made unit length, so a server that answers
 * nonsense fails the call with words saying what was wrong instead of poisoning an index.
 */
import type { EmbeddingsValue } from '../../values/embeddings.js';

export interface EmbeddingsTarget {
  provider: string;
  model: string;
  /** The API root, `/embeddings` is appended (`https://api.openai.com/v1`, `http://localhost:11434/v1`). */
  baseURL: string;
  apiKey: string;
  dimensions?: number;
  /** Texts per request. */
  batchSize?: number;
  timeoutMs?: number;
  maxRetries?: number;
}

const DEFAULT_BATCH = 256;
/** OpenAI takes at most 2048 inputs per request. */
const MAX_BATCH = 2048;
const DEFAULT_TIMEOUT_MS = 60_000;

export class EmbeddingsError extends Error {
  override name = 'EmbeddingsError';
}

export function embeddingsValue(target: EmbeddingsTarget): EmbeddingsValue {
  const url = `${target.baseURL.replace(/\/+$/, '')}/embeddings`;
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw new EmbeddingsError(`Embedding API base URL is not an http(s) URL: ${target.baseURL}`);
  const batchSize = Math.min(MAX_BATCH, Math.max(1, target.batchSize || DEFAULT_BATCH));
  return {
    kind: 'embeddings',
    provider: target.provider,
    model: target.model,
    baseURL: target.baseURL,
    dimensions: target.dimensions || undefined,
    async embed(texts, signal) {
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        vectors.push(...(await embedBatch(url, target, texts.slice(start, start + batchSize), signal)));
        const expected = vectors[0]!.length;
        const odd = vectors.find((v) => v.length !== expected);
        if (odd) throw new EmbeddingsError(`The embedding model ${target.model} answered vectors of ${odd.length} dimensions after vectors of ${expected}`);
      }
      return vectors;
    },
  };
}

async function embedBatch(url: string, target: EmbeddingsTarget, texts: readonly string[], signal: AbortSignal): Promise<Float32Array[]> {
  const body = JSON.stringify({ model: target.model, input: texts, encoding_format: 'float', ...(target.dimensions ? { dimensions: target.dimensions } : {}) });
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (target.apiKey) headers.authorization = `Bearer ${target.apiKey}`;
  const retries = Math.max(0, Math.min(10, target.maxRetries ?? 2));
  const timeoutMs = target.timeoutMs || DEFAULT_TIMEOUT_MS;
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) });
    } catch (error) {
      if (signal.aborted) throw error;
      const timedOut = (error as Error).name === 'TimeoutError';
      if (attempt < retries && !timedOut) continue;
      throw new EmbeddingsError(timedOut ? `The embedding API at ${target.baseURL} did not answer within ${timeoutMs} ms` : `Could not reach the embedding API at ${target.baseURL}: ${(error as Error).message}`);
    }
    if ((response.status === 429 || response.status >= 500) && attempt < retries) {
      await response.body?.cancel();
      await pause(250 * 2 ** attempt, signal);
      continue;
    }
    const text = await response.text();
    if (!response.ok) throw new EmbeddingsError(`The embedding API at ${target.baseURL} answered ${response.status}: ${text.slice(0, 300)}`);
    return vectorsOf(text, texts.length, target);
  }
}

function vectorsOf(text: string, expected: number, target: EmbeddingsTarget): Float32Array[] {
  let parsed: { data?: { embedding?: unknown; index?: unknown }[] };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    throw new EmbeddingsError(`The embedding API at ${target.baseURL} answered something that is not JSON`);
  }
  const data = Array.isArray(parsed.data) ? parsed.data : [];
  if (data.length !== expected) throw new EmbeddingsError(`The embedding API answered ${data.length} vectors for ${expected} texts`);
  const ordered = data.every((item) => typeof item.index === 'number') ? [...data].sort((a, b) => (a.index as number) - (b.index as number)) : data;
  return ordered.map((item, i) => unitVector(item.embedding, i, target));
}

function unitVector(raw: unknown, position: number, target: EmbeddingsTarget): Float32Array {
  if (!Array.isArray(raw) || raw.length === 0) throw new EmbeddingsError(`The embedding API answered no vector for text ${position}`);
  if (target.dimensions && raw.length !== target.dimensions) throw new EmbeddingsError(`The embedding model ${target.model} answered vectors of ${raw.length} dimensions, ${target.dimensions} were asked for`);
  const vector = new Float32Array(raw.length);
  let norm = 0;
  for (let i = 0; i < raw.length; i++) {
    const value = raw[i];
    if (typeof value !== 'number' || !Number.isFinite(value)) throw new EmbeddingsError(`The embedding API answered a vector holding ${JSON.stringify(value)}`);
    vector[i] = value;
    norm += value * value;
  }
  if (norm === 0) throw new EmbeddingsError('The embedding API answered a vector of zeros');
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < vector.length; i++) vector[i]! *= scale;
  return vector;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    }, { once: true });
  });
}
