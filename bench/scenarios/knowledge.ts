/**
 * Knowledge bases: ingestion throughput through the API (chunks/s with the stand-in embedder) against usearch's own
 * bulk insert of as many vectors; query p50/p99 against the library alone at each size (BENCH_KNOWLEDGE, default
 * `10000x384,10000x1536,100000x384,100000x1536`; LanceDB's flat search beside them when installed); memory per
 * 100k vectors; and a retrieval flow (Chat Input -> Knowledge -> Parser -> Chat Output) against an echo run, the
 * added latency of a retrieval.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { serviceLogger } from '../../src/logger.js';
import { startService } from '../../src/main/server.js';
import { hnswIndex } from '../../src/knowledge/vectors/hnsw-settings.js';
import { startEmbeddingServer } from '../support/embedding-server.js';
import { echoFlow } from '../support/flows.js';
import { BENCH_API_KEY } from '../support/processes.js';
import type { Row } from '../support/report.js';
import { alternatingMs, createFlow } from '../support/runs.js';
import { clusteredVectors, measureQueries } from '../support/vector-queries.js';

const INGEST_CHUNKS = Number(process.env.BENCH_KNOWLEDGE_CHUNKS ?? 20_000);
const DIMS = 384;
const headers = { 'x-api-key': BENCH_API_KEY, 'x-flowsvc-global-var-openai-api-key': 'sk-bench' };

export async function knowledgeScenario(): Promise<Row[]> {
  const rows: Row[] = [];
  const embedder = await startEmbeddingServer({ dims: DIMS });
  process.env.OPENAI_BASE_URL = embedder.baseURL;
  // The retrieval runs find the embedding key in the environment (the bench's runs send no variable headers).
  process.env.OPENAI_API_KEY ??= 'sk-bench';
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-bench-'));
  const config = loadConfig({}, { PORT: '0', DATA_DIR: dir, LOG_LEVEL: 'silent', API_KEY: BENCH_API_KEY, JOB_TIMEOUT_SECONDS: '3600', FALLBACK_TO_ENV_VAR: 'true' });
  const service = await startService(config, serviceLogger(config, false));
  try {
    const perSecond = await ingestionRate(service.url);
    const library = libraryInsertRate(INGEST_CHUNKS, DIMS);
    rows.push({ scenario: 'knowledge', measure: `ingestion of ${INGEST_CHUNKS} chunks (${DIMS} dims, stand-in embedder, API to committed)`, value: perSecond, unit: 'chunks/s', baseline: library, baselineName: 'usearch HNSW add alone', ratio: perSecond / library });
    rows.push(...(await retrievalLatency(service.url)));
  } finally {
    await service.stop();
    await embedder.close();
    rmSync(dir, { recursive: true, force: true });
  }
  for (const size of (process.env.BENCH_KNOWLEDGE ?? '10000x384,10000x1536,100000x384,100000x1536').split(',')) {
    const [count, dims] = size.split('x').map(Number) as [number, number];
    const q = await measureQueries(count, dims);
    const how = q.exact ? 'exact' : 'HNSW';
    const lance = q.lanceP50 === undefined ? '' : `; LanceDB flat p50 ${q.lanceP50.toFixed(2)} ms`;
    rows.push({ scenario: 'knowledge', measure: `query p50, ${count}x${dims}, top-5 (${how}${lance})`, value: q.oursP50, unit: 'ms', baseline: q.libraryP50, baselineName: `usearch ${how} alone`, ratio: q.oursP50 / q.libraryP50 });
    rows.push({ scenario: 'knowledge', measure: `query p99, ${count}x${dims}, top-5 (${how})`, value: q.oursP99, unit: 'ms', baseline: q.libraryP99, baselineName: `usearch ${how} alone`, ratio: q.oursP99 / q.libraryP99 });
    rows.push({ scenario: 'knowledge', measure: `memory per 100k vectors, ${count}x${dims} (${q.exact ? 'heap' : 'mapped HNSW file'})`, value: ((q.exact ? q.heapBytes : q.hnswFileBytes) * (100_000 / count)) / 2 ** 20, unit: 'MB' });
  }
  return rows;
}

async function ingestionRate(url: string): Promise<number> {
  await fetch(`${url}/api/v1/knowledge_bases`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'bench', embedding_provider: 'OpenAI', embedding_model: 'stand-in' }) });
  const text = Array.from({ length: INGEST_CHUNKS }, (_, i) => `chunk ${i} about topic ${i % 97} with words ${i % 13}`).join('\n');
  const form = new FormData();
  form.append('files', new Blob([text]), 'bench.txt');
  form.append('chunk_size', '40');
  form.append('chunk_overlap', '0');
  const started = performance.now();
  const { id } = (await (await fetch(`${url}/api/v1/knowledge_bases/bench/ingest`, { method: 'POST', headers, body: form })).json()) as { id: string };
  const events = await (await fetch(`${url}/api/v1/knowledge_bases/bench/runs/${id}?stream=true`, { headers })).text();
  const seconds = (performance.now() - started) / 1000;
  const end = JSON.parse(events.split('\n\n').find((f) => f.includes('event: end'))!.split('data: ')[1]!) as { status: string; chunks_created: number };
  if (end.status !== 'completed') throw new Error(`bench ingestion ${end.status}`);
  return end.chunks_created / seconds;
}

/** usearch's own bulk insert (HNSW, one thread) of as many vectors: what an index library alone takes. */
function libraryInsertRate(count: number, dims: number): number {
  const vectors = clusteredVectors(count, dims, 7);
  const index = hnswIndex(dims);
  const started = performance.now();
  index.add(BigUint64Array.from({ length: count }, (_, i) => BigInt(i)), vectors, 1);
  return count / ((performance.now() - started) / 1000);
}

async function retrievalLatency(url: string): Promise<Row[]> {
  const node = (id: string, type: string, template: Record<string, unknown> = {}) => ({ id, type: 'genericNode', position: { x: 0, y: 0 }, data: { id, type, node: { template: Object.fromEntries(Object.entries(template).map(([k, value]) => [k, { value }])) } } });
  const edge = (source: string, output: string, target: string, field: string) => ({ source, target, data: { sourceHandle: { id: source, name: output }, targetHandle: { id: target, fieldName: field } } });
  const retrieval = {
    name: 'bench retrieval',
    data: {
      nodes: [node('ChatInput-b1', 'ChatInput'), node('Knowledge-b2', 'Knowledge', { knowledge_base: 'bench', mode: 'Retrieve', top_k: 5 }), node('parser-b3', 'parser', { mode: 'Parser', pattern: '{content}', sep: '\n' }), node('ChatOutput-b4', 'ChatOutput')],
      edges: [edge('ChatInput-b1', 'message', 'Knowledge-b2', 'search_query'), edge('Knowledge-b2', 'retrieve_data', 'parser-b3', 'input_data'), edge('parser-b3', 'parsed_text', 'ChatOutput-b4', 'input_value')],
    },
  };
  const retrievalId = await createFlow(url, retrieval);
  const echoId = await createFlow(url, echoFlow('bench echo'));
  const body = JSON.stringify({ input_value: 'chunk about topic 42 with words 3', session_id: 'bench' });
  const [retrievalMs, echoMs] = await alternatingMs([`${url}/api/v1/run/${retrievalId}`, `${url}/api/v1/run/${echoId}`], 10, 20, body);
  return [{ scenario: 'knowledge', measure: 'retrieval run (Chat Input -> Knowledge top-5 of the ingested base -> Parser -> Chat Output), per run', value: retrievalMs!, unit: 'ms', baseline: echoMs, baselineName: 'echo run', ratio: retrievalMs! / echoMs! }];
}
