/**
 * A user deleted on one instance takes their knowledge bases with them in PostgreSQL and in the shared files dir:
 * records, ingestions and chunks rows, and vector files, whichever instance ran the ingestion.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import t from 'tap';
import { startEmbeddingServer } from '../bench/support/embedding-server.js';
import { startCluster } from './support/cluster.js';
import { expectJson, type Instance } from './support/instances.js';

/** A new user on `instance`, created by the superuser; their API key. */
async function userWithKey(instance: Instance, username: string): Promise<{ id: string; key: string }> {
  const password = `pw-${username}`;
  const { id } = await expectJson(await instance.call('/api/v1/users/', { method: 'POST', json: { username, password } }), 201);
  const login = await fetch(`${instance.url}/api/v1/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ username, password }).toString() });
  const { access_token } = await login.json();
  const { api_key } = await expectJson(await instance.call('/api/v1/api_key/', { method: 'POST', key: null, headers: { authorization: `Bearer ${access_token}` }, json: { name: 'test' } }), 200);
  return { id, key: api_key };
}

t.test("a user deleted on one instance: their knowledge bases' rows and vector files are gone for all", async (t) => {
  const embedder = await startEmbeddingServer({ dims: 32 });
  t.teardown(() => embedder.close());
  const cluster = await startCluster(t, 2, { OPENAI_BASE_URL: embedder.baseURL, FLOWSVC_FALLBACK_TO_ENV_VAR: 'false' });
  const [a, b] = cluster.instances;
  const user = await userWithKey(a!, 'kb-leaving');
  await expectJson(await a!.call('/api/v1/knowledge_bases', { method: 'POST', key: user.key, json: { name: 'facts', embedding_provider: 'OpenAI', embedding_model: 'text-embedding-3-small' } }), 201);
  const form = new FormData();
  form.append('files', new Blob(['Owls hunt at night.\n\nVolcanoes form where magma reaches the surface.']), 'facts.txt');
  form.append('chunk_size', '60');
  form.append('chunk_overlap', '0');
  const headers = { 'x-api-key': user.key, 'x-flowsvc-global-var-openai-api-key': 'sk-stand-in' };
  const accepted = await (await fetch(`${a!.url}/api/v1/knowledge_bases/facts/ingest`, { method: 'POST', headers, body: form })).json();
  t.match(await (await fetch(`${a!.url}/api/v1/knowledge_bases/facts/runs/${accepted.id}?stream=true`, { headers })).text(), /event: end/);
  t.equal((await expectJson(await a!.call('/api/v1/knowledge_bases/facts', { key: user.key }), 200)).chunks, 2);

  const pool = new pg.Pool({ connectionString: cluster.databaseUrl, max: 1 });
  t.teardown(() => pool.end());
  const count = async (sql: string) => Number((await pool.query(sql, [user.id])).rows[0].n);
  const rows = async () => ({
    bases: await count('SELECT count(*) AS n FROM knowledge_bases WHERE user_id = $1'),
    chunks: await count('SELECT count(*) AS n FROM knowledge_chunks WHERE kb_id IN (SELECT id FROM knowledge_bases WHERE user_id = $1)'),
    jobs: await count("SELECT count(*) AS n FROM knowledge_jobs WHERE doc->>'user_id' = $1"),
  });
  t.same(await rows(), { bases: 1, chunks: 2, jobs: 1 }, 'rows in PostgreSQL before');
  const userDir = join(cluster.filesDir, 'knowledge', user.id);
  t.ok(existsSync(userDir), 'vector files in the shared files dir before');

  await expectJson(await b!.call(`/api/v1/users/${user.id}`, { method: 'DELETE' }), 200);
  t.same(await rows(), { bases: 0, chunks: 0, jobs: 0 }, 'deleted on B: no rows left');
  t.notOk(existsSync(userDir), 'and no vector files');
  const again = await userWithKey(a!, 'kb-leaving');
  t.same(await expectJson(await a!.call('/api/v1/knowledge_bases', { key: again.key }), 200), [], 'a new user of that username starts with none');
  await expectJson(await a!.call('/api/v1/knowledge_bases', { method: 'POST', key: again.key, json: { name: 'facts', embedding_provider: 'OpenAI', embedding_model: 'text-embedding-3-small' } }), 201);
});
