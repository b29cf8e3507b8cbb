/** Shared pieces of the flows and projects tests: flow bodies, uploads, a second user, ZIP reading. */
import { readFileSync } from 'node:fs';
import { strFromU8, unzipSync } from 'fflate';
import type { TestServer } from './server.js';

import { startersDir } from './shared.js';

/** A Langflow export from the shared starters (real-world data, for the compatibility checks in test-compat/). */
export function starterFlow(name: string): Record<string, any> {
  return JSON.parse(readFileSync(`${startersDir()}/${name}.json`, 'utf8'));
}

/** A small but complete two-node flow graph, with whatever extra top-level fields are given. */
export function flowBody(name: string, extra: Record<string, unknown> = {}): Record<string, any> {
  return {
    name,
    description: `${name} description`,
    data: {
      nodes: [
        { id: 'ChatInput-aaaa1', type: 'genericNode', position: { x: 0, y: 0 }, data: { id: 'ChatInput-aaaa1', type: 'ChatInput', node: { template: {} } } },
        { id: 'ChatOutput-bbbb2', type: 'genericNode', position: { x: 400, y: 0 }, data: { id: 'ChatOutput-bbbb2', type: 'ChatOutput', node: { template: {} } } },
      ],
      edges: [{ id: 'e1', source: 'ChatInput-aaaa1', target: 'ChatOutput-bbbb2', data: { sourceHandle: { id: 'ChatInput-aaaa1', name: 'message' }, targetHandle: { id: 'ChatOutput-bbbb2', fieldName: 'input_value' } } }],
      viewport: { x: 0, y: 0, zoom: 1 },
    },
    ...extra,
  };
}

export async function createFlow(server: TestServer, body: Record<string, unknown>, key?: string): Promise<Record<string, any>> {
  const res = await server.request('/api/v1/flows/', { method: 'POST', json: body, key });
  if (res.status !== 201) throw new Error(`create flow: ${res.status} ${await res.text()}`);
  return res.json();
}

/** A multipart POST with `content` as the field `file`. */
export function upload(server: TestServer, path: string, content: string | Uint8Array, filename = 'flows.json', key?: string): Promise<Response> {
  const form = new FormData();
  const part = typeof content === 'string' ? content : new Uint8Array(content); // a copy backed by a plain ArrayBuffer, as Blob wants
  form.append('file', new Blob([part], { type: filename.endsWith('.zip') ? 'application/zip' : 'application/json' }), filename);
  return server.request(path, { method: 'POST', body: form, key });
}

/** The JSON entries of a ZIP reply, by entry name. */
export async function zipEntries(res: Response): Promise<Record<string, any>> {
  const entries = unzipSync(new Uint8Array(await res.arrayBuffer()));
  return Object.fromEntries(Object.entries(entries).map(([name, bytes]) => [name, JSON.parse(strFromU8(bytes))]));
}

/** A second, ordinary user made by the superuser, with an API key obtained the way a client would. */
export async function secondUser(server: TestServer, username = 'second-user'): Promise<{ id: string; key: string }> {
  const password = 'second-password';
  const created = await server.request('/api/v1/users/', { method: 'POST', json: { username, password } });
  if (created.status !== 201) throw new Error(`create user: ${created.status} ${await created.text()}`);
  const login = await server.request('/api/v1/login', {
    method: 'POST',
    key: null,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password }).toString(),
  });
  const { access_token } = await login.json();
  const keyRes = await server.request('/api/v1/api_key/', { method: 'POST', key: null, headers: { authorization: `Bearer ${access_token}` }, json: { name: 'tests' } });
  if (keyRes.status !== 200) throw new Error(`create api key: ${keyRes.status} ${await keyRes.text()}`);
  return { id: (await created.json()).id, key: (await keyRes.json()).api_key };
}
