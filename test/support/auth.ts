/** Helpers to act as other users in tests: create, log in, make a key. */
import type { TestServer } from './server.js';

export async function login(server: TestServer, username: string, password: string): Promise<Response> {
  return fetch(`${server.url}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password }).toString(),
  });
}

/** Creates a user through the API (as the superuser) and returns its id and a fresh API key. */
export async function createUserWithKey(server: TestServer, username: string, password = 'pw-' + username): Promise<{ id: string; apiKey: string }> {
  const created = await server.request('/api/v1/users/', { method: 'POST', json: { username, password } });
  if (created.status !== 201) throw new Error(`create user: ${created.status} ${await created.text()}`);
  const { id } = await created.json();
  const tokens = await (await login(server, username, password)).json();
  const keyRes = await fetch(`${server.url}/api/v1/api_key/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'test' }),
  });
  const { api_key } = await keyRes.json();
  return { id, apiKey: api_key };
}
