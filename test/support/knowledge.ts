/** Helpers for knowledge base tests: create one, ingest texts as uploads, wait for the ingestion to end. */
import type { TestServer } from './server.js';

export const KEY_HEADER = { 'x-flowsvc-global-var-openai-api-key': 'sk-stand-in' };

export async function createKb(server: TestServer, name: string, key?: string, model = 'text-embedding-3-small'): Promise<Response> {
  return server.request('/api/v1/knowledge_bases', { method: 'POST', json: { name, embedding_provider: 'OpenAI', embedding_model: model }, key });
}

/** Posts an ingestion of `files` (name -> text or bytes) with form `fields`; the reply as it came. */
export async function ingest(server: TestServer, kb: string, files: Record<string, string | Uint8Array>, fields: Record<string, string> = {}, key?: string): Promise<Response> {
  const form = new FormData();
  for (const [name, content] of Object.entries(files)) form.append('files', new Blob([content as BlobPart]), name);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return server.request(`/api/v1/knowledge_bases/${encodeURIComponent(kb)}/ingest`, { method: 'POST', body: form, headers: KEY_HEADER, key });
}

/** Follows the ingestion's progress stream to its `end` event and answers the final record. */
export async function ingestionEnd(server: TestServer, kb: string, jobId: string, key?: string): Promise<Record<string, any>> {
  const res = await server.request(`/api/v1/knowledge_bases/${encodeURIComponent(kb)}/runs/${jobId}?stream=true`, { key });
  const text = await res.text();
  const end = text.split('\n\n').find((frame) => frame.includes('event: end'));
  if (!end) throw new Error(`no end event in ${text.slice(0, 500)}`);
  return JSON.parse(end.split('\n').find((line) => line.startsWith('data: '))!.slice(6));
}

/** Ingests and waits: the final ingestion record. */
export async function ingestAndWait(server: TestServer, kb: string, files: Record<string, string | Uint8Array>, fields: Record<string, string> = {}, key?: string): Promise<Record<string, any>> {
  const res = await ingest(server, kb, files, fields, key);
  if (res.status !== 200) throw new Error(`ingest: ${res.status} ${await res.text()}`);
  const { id } = (await res.json()) as { id: string };
  return ingestionEnd(server, kb, id, key);
}
