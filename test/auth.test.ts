import t from 'tap';
import { AUTH_MESSAGES } from '../src/auth/authenticator.js';
import { createUserWithKey, login } from './support/auth.js';
import { startTestServer } from './support/server.js';

t.test('API keys: create, use (header and query), list masked, revoke', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());

  const created = await server.request('/api/v1/api_key/', { method: 'POST', json: { name: 'ci' } });
  t.equal(created.status, 200);
  const key = await created.json();
  t.match(key.api_key, /^sk-[A-Za-z0-9_-]{43}$/, 'sk- plus 43 url-safe characters');
  t.equal(key.name, 'ci');

  const viaHeader = await server.request('/api/v1/users/whoami', { key: key.api_key });
  t.equal(viaHeader.status, 200);
  t.equal((await viaHeader.json()).username, 'langflow');

  const viaQuery = await server.request(`/api/v1/users/whoami?x-api-key=${key.api_key}`, { key: null });
  t.equal(viaQuery.status, 200, 'a key in the query string works');

  const list = await (await server.request('/api/v1/api_key/')).json();
  t.equal(list.total_count, 1);
  const listed = list.api_keys[0];
  t.equal(listed.id, key.id);
  t.equal(listed.api_key.slice(0, 8), key.api_key.slice(0, 8));
  t.match(listed.api_key.slice(8), /^\*+$/, 'listed keys are masked after 8 characters');
  t.ok(listed.total_uses >= 2, 'uses are counted');

  const deleted = await server.request(`/api/v1/api_key/${key.id}`, { method: 'DELETE' });
  t.same(await deleted.json(), { detail: 'API Key deleted' });
  const revoked = await server.request('/api/v1/users/whoami', { key: key.api_key });
  t.equal(revoked.status, 403, 'a revoked key is refused at once');
  t.same(await revoked.json(), { detail: 'Invalid or missing API key' });

  const again = await server.request(`/api/v1/api_key/${key.id}`, { method: 'DELETE' });
  // Langflow answers 400; a 404 as for another user's key, so the answer never tells whose keys exist.
  t.same([again.status, await again.json()], [404, { detail: 'API Key not found' }], 'deleting an unknown key is a 404');
});

t.test('missing and invalid keys on v1 routes: Langflow 403s and messages', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const missing = await server.request('/api/v1/users/whoami', { key: null });
  t.equal(missing.status, 403);
  t.match((await missing.json()).detail, /x-api-key header or the x-api-key query parameter/);
  const invalid = await server.request('/api/v1/users/whoami', { key: 'sk-nope' });
  t.equal(invalid.status, 403);
  t.same(await invalid.json(), { detail: 'Invalid or missing API key' });
});

t.test('AUTO_LOGIN=false: a key must be passed; auto_login is refused', async (t) => {
  const server = await startTestServer({ AUTO_LOGIN: 'false' });
  t.teardown(() => server.close());
  const missing = await server.request('/api/v1/users/whoami', { key: null });
  t.equal(missing.status, 403);
  t.same(await missing.json(), { detail: AUTH_MESSAGES.keyRequired });
  const auto = await server.request('/api/v1/auto_login', { key: null });
  t.equal(auto.status, 400);
  t.same(await auto.json(), { detail: { message: 'Auto login is disabled. Please enable it in the settings', auto_login: false } });
});

t.test('SKIP_AUTH_AUTO_LOGIN: no key acts as the superuser', async (t) => {
  const server = await startTestServer({ SKIP_AUTH_AUTO_LOGIN: 'true' });
  t.teardown(() => server.close());
  const res = await server.request('/api/v1/users/whoami', { key: null });
  t.equal(res.status, 200);
  t.equal((await res.json()).is_superuser, true);
});

t.test('auto_login, login, bearer tokens, refresh and logout', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());

  const auto = await server.request('/api/v1/auto_login', { key: null });
  t.equal(auto.status, 200);
  const autoTokens = await auto.json();
  t.equal(autoTokens.token_type, 'bearer');
  t.match(auto.headers.get('set-cookie'), /access_token_lf=/);
  const me = await server.request('/api/v1/users/whoami', { key: null, headers: { authorization: `Bearer ${autoTokens.access_token}` } });
  t.equal((await me.json()).username, 'langflow', 'the auto-login token acts as the superuser');

  const wrong = await login(server, 'langflow', 'wrong');
  t.equal(wrong.status, 401);
  t.same(await wrong.json(), { detail: 'Incorrect username or password' });

  const ok = await login(server, 'langflow', 'test-password');
  t.equal(ok.status, 200);
  const tokens = await ok.json();
  t.type(tokens.refresh_token, 'string');

  const viaCookie = await server.request('/api/v1/users/whoami', { key: null, headers: { cookie: `access_token_lf=${tokens.access_token}` } });
  t.equal(viaCookie.status, 200, 'the access cookie authenticates');

  const badToken = await server.request('/api/v1/users/whoami', { key: null, headers: { authorization: 'Bearer not-a-jwt' } });
  t.equal(badToken.status, 401);
  t.same(await badToken.json(), { detail: 'Could not validate credentials' });

  const refreshed = await server.request('/api/v1/refresh', { method: 'POST', key: null, headers: { cookie: `refresh_token_lf=${tokens.refresh_token}` } });
  t.equal(refreshed.status, 200);
  t.type((await refreshed.json()).access_token, 'string');
  const refusedRefresh = await server.request('/api/v1/refresh', { method: 'POST', key: null, headers: { cookie: `refresh_token_lf=${tokens.access_token}` } });
  t.equal(refusedRefresh.status, 401, 'an access token is not a refresh token');

  const out = await server.request('/api/v1/logout', { method: 'POST', key: null });
  t.same(await out.json(), { message: 'Logout successful' });
  t.match(out.headers.get('set-cookie'), /access_token_lf=;/);

  const badForm = await fetch(`${server.url}/api/v1/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'username=x' });
  t.equal(badForm.status, 422);
  t.same((await badForm.json()).detail[0].loc, ['body', 'password']);
});

t.test('users: superuser rules, self-service, password reset', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const alice = await createUserWithKey(server, 'alice');

  const dup = await server.request('/api/v1/users/', { method: 'POST', json: { username: 'alice', password: 'x' } });
  t.equal(dup.status, 400);
  t.same(await dup.json(), { detail: 'This username is unavailable.' });

  const aliceMe = await (await server.request('/api/v1/users/whoami', { key: alice.apiKey })).json();
  t.equal(aliceMe.username, 'alice');
  t.equal(aliceMe.is_superuser, false);
  t.notOk('password_hash' in aliceMe, 'the password hash never leaves the server');
  t.type(aliceMe.create_at, 'string', "Langflow's create_at field");

  const list = await server.request('/api/v1/users/', { key: alice.apiKey });
  t.equal(list.status, 403, 'only superusers list users');
  const all = await (await server.request('/api/v1/users/?limit=50')).json();
  t.equal(all.total_count, 2);

  const byAlice = await server.request('/api/v1/users/', { method: 'POST', key: alice.apiKey, json: { username: 'bob', password: 'x' } });
  t.equal(byAlice.status, 403, 'only superusers add users');

  const selfPromote = await server.request(`/api/v1/users/${alice.id}`, { method: 'PATCH', key: alice.apiKey, json: { is_superuser: true } });
  t.equal(selfPromote.status, 403);
  const rename = await server.request(`/api/v1/users/${alice.id}`, { method: 'PATCH', key: alice.apiKey, json: { profile_image: 'People/x.svg' } });
  t.equal((await rename.json()).profile_image, 'People/x.svg');

  const reset = await server.request(`/api/v1/users/${alice.id}/reset-password`, { method: 'PATCH', key: alice.apiKey, json: { password: 'new-pass' } });
  t.equal(reset.status, 200);
  t.equal((await login(server, 'alice', 'new-pass')).status, 200, 'the new password works');
  t.equal((await login(server, 'alice', 'pw-alice')).status, 401, 'the old one does not');

  const superId = (await (await server.request('/api/v1/users/whoami')).json()).id;
  const selfDelete = await server.request(`/api/v1/users/${superId}`, { method: 'DELETE' });
  t.equal(selfDelete.status, 400, 'a user cannot delete themselves');
  const del = await server.request(`/api/v1/users/${alice.id}`, { method: 'DELETE' });
  t.same(await del.json(), { detail: 'User deleted' });
  const gone = await server.request('/api/v1/users/whoami', { key: alice.apiKey });
  t.equal(gone.status, 403, "a deleted user's key no longer works");
  t.equal((await server.services.store.apiKeys.listByUser(alice.id)).length, 0, "a deleted user's keys are removed");
});

t.test('users, keys and the secret survive a restart', async (t) => {
  const first = await startTestServer();
  const dataDir = first.dataDir;
  const carol = await createUserWithKey(first, 'carol');
  const token = (await (await login(first, 'carol', 'pw-carol')).json()).access_token;
  await first.stop();

  const second = await startTestServer({}, dataDir);
  t.teardown(async () => {
    await second.close();
    (await import('node:fs')).rmSync(dataDir, { recursive: true, force: true });
  });
  const me = await second.request('/api/v1/users/whoami', { key: carol.apiKey });
  t.equal(me.status, 200, 'the API key still works after a restart');
  t.equal((await me.json()).username, 'carol');
  const withToken = await second.request('/api/v1/users/whoami', { key: null, headers: { authorization: `Bearer ${token}` } });
  t.equal(withToken.status, 200, 'tokens signed before the restart still verify (the secret key is kept)');
  const keys = await (await second.request('/api/v1/api_key/', { key: carol.apiKey })).json();
  t.equal(keys.api_keys.length, 1);
  t.ok(keys.api_keys[0].total_uses >= 1, 'usage counted before the restart was flushed');
});

t.test('the store API key is kept sealed, never in clear', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const saved = await server.request('/api/v1/api_key/store', { method: 'POST', json: { api_key: 'store-secret-123' } });
  t.same(await saved.json(), { detail: 'API Key saved' });
  const me = await (await server.request('/api/v1/users/whoami')).json();
  t.type(me.store_api_key, 'string');
  t.notMatch(me.store_api_key, /store-secret-123/, 'whoami shows the sealed value only');
  t.equal(server.services.secrets.open(me.store_api_key), 'store-secret-123', 'the service can still read it');
  const empty = await server.request('/api/v1/api_key/store', { method: 'POST', json: { api_key: '' } });
  t.equal(empty.status, 422);
});
