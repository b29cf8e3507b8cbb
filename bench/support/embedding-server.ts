/**
 * A local stand-in for an OpenAI-compatible embeddings API (`POST /v1/embeddings`), for tests and the bench:
 * deterministic vectors, a hashed bag of words, so texts sharing words are near each other and a search finds
 * what a person would expect. It can misbehave on request: hang (a timeout), answer vectors of another size, or
 * fail, after a number of requests. Every request is counted with its number of inputs.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface EmbeddingServerOptions {
  dims?: number;
}

export interface EmbeddingServer {
  url: string;
  /** `<url>/v1`: what OPENAI_BASE_URL (or a node's base URL) takes. */
  baseURL: string;
  dims: number;
  requests: number;
  inputs: number;
  /** From request `after + 1` on, misbehave this way. */
  misbehave(after: number, how: 'hang' | 'wrong-dimensions' | 'error' | 'none'): void;
  close(): Promise<void>;
}

/** The stand-in's vector for a text: what a test can compute to know the answer. */
export function standInVector(text: string, dims: number): number[] {
  const vector = new Array<number>(dims).fill(0);
  vector[0] = 0.01;
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    let hash = 2166136261;
    for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 16777619);
    vector[(hash >>> 0) % dims]! += 1;
  }
  return vector;
}

export async function startEmbeddingServer(options: EmbeddingServerOptions = {}): Promise<EmbeddingServer> {
  const dims = options.dims ?? 64;
  let mode: { after: number; how: 'hang' | 'wrong-dimensions' | 'error' | 'none' } = { after: Infinity, how: 'none' };
  const hanging = new Set<import('node:http').ServerResponse>();
  const state: EmbeddingServer = {
    url: '',
    baseURL: '',
    dims,
    requests: 0,
    inputs: 0,
    misbehave: (after, how) => (mode = { after, how }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (chunk: Buffer) => parts.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/embeddings')) {
        res.writeHead(404).end();
        return;
      }
      const n = ++state.requests;
      const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as { input: string | string[]; model: string; dimensions?: number };
      const inputs = Array.isArray(body.input) ? body.input : [body.input];
      state.inputs += inputs.length;
      const how = n > mode.after ? mode.how : 'none';
      if (how === 'hang') {
        hanging.add(res);
        return;
      }
      if (how === 'error') {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'the stand-in was told to fail' } }));
        return;
      }
      const size = how === 'wrong-dimensions' ? dims + 3 : (body.dimensions ?? dims);
      const data = inputs.map((text, index) => ({ object: 'embedding', index, embedding: standInVector(text, size) }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: 0, total_tokens: 0 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.baseURL = `${state.url}/v1`;
  return state;
}
