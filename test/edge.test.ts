/** The uWS edge over real HTTP: routing errors, validation (spec 2.7), auth refusals, CORS and HEAD. */
import t from 'tap';
import { AUTH_MESSAGES } from '../src/auth/authenticator.js';
import { startTestServer } from './support/server.js';

/** What breaks spec 2.7 in a 422 body (`{detail: [{loc, msg, type}]}`, all three in every item); empty when none. */
function validationShapeProblems(body: any): string[] {
  if (!Array.isArray(body?.detail) || body.detail.length === 0) return ['detail is not a non-empty array'];
  return body.detail.flatMap((item: any, i: number) => [
    ...(Array.isArray(item.loc) && item.loc.every((p: unknown) => typeof p === 'string' || typeof p === 'number') ? [] : [`detail[${i}].loc`]),
    ...(typeof item.msg === 'string' ? [] : [`detail[${i}].msg`]),
    ...(typeof item.type === 'string' ? [] : [`detail[${i}].type`]),
  ]);
}

t.test('edge', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());

  t.test('malformed JSON is a 422 json_invalid at the body', async (t) => {
    const res = await server.request('/api/v1/users', { method: 'POST', body: '{"username": ', headers: { 'content-type': 'application/json' } });
    t.equal(res.status, 422);
    t.match(res.headers.get('content-type'), /application\/json/);
    const body = await res.json();
    t.same(validationShapeProblems(body), [], 'spec 2.7 shape');
    t.equal(body.detail[0].type, 'json_invalid');
    t.equal(body.detail[0].loc[0], 'body');
  });

  t.test('a field of the wrong type is reported as such, not as missing', async (t) => {
    const res = await server.request('/api/v1/users', { method: 'POST', json: { username: 5, password: 'pw' } });
    t.equal(res.status, 422);
    const body = await res.json();
    t.same(validationShapeProblems(body), [], 'spec 2.7 shape');
    t.same(body.detail.map((i: any) => i.loc), [['body', 'username']]);
    t.equal(body.detail[0].type, 'string_type');
  });

  t.test('missing fields are each reported as missing', async (t) => {
    const res = await server.request('/api/v1/users', { method: 'POST', json: {} });
    t.equal(res.status, 422);
    const body = await res.json();
    t.same(validationShapeProblems(body), [], 'spec 2.7 shape');
    t.same(
      body.detail.map((i: any) => [i.loc, i.type, i.msg]),
      [
        [['body', 'username'], 'missing', 'Field required'],
        [['body', 'password'], 'missing', 'Field required'],
      ],
    );
  });

  t.test('an absent JSON body is one missing item at the body', async (t) => {
    const res = await server.request('/api/v1/users', { method: 'POST' });
    t.equal(res.status, 422);
    const body = await res.json();
    t.same(body.detail, [{ loc: ['body'], msg: 'Field required', type: 'missing' }]);
  });

  t.test('PATCH with a wrong type names the field', async (t) => {
    const whoami = await (await server.request('/api/v1/users/whoami')).json();
    const res = await server.request(`/api/v1/users/${whoami.id}`, { method: 'PATCH', json: { is_active: 'maybe' } });
    t.equal(res.status, 422);
    const body = await res.json();
    t.same(validationShapeProblems(body), [], 'spec 2.7 shape');
    t.same(body.detail[0].loc, ['body', 'is_active']);
    t.not(body.detail[0].type, 'missing');
  });

  t.test('an unknown route is a JSON 404', async (t) => {
    const res = await server.request('/api/v1/no-such-thing');
    t.equal(res.status, 404);
    t.match(res.headers.get('content-type'), /application\/json/);
    t.same(await res.json(), { detail: 'Not Found' });
  });

  t.test('a known path with the wrong method is a JSON 405 with Allow', async (t) => {
    const res = await server.request('/health', { method: 'DELETE' });
    t.equal(res.status, 405);
    t.same(await res.json(), { detail: 'Method Not Allowed' });
    const allow = (res.headers.get('allow') ?? '').split(/,\s*/);
    t.ok(allow.includes('GET'), `allow: ${allow}`);
    t.ok(allow.includes('HEAD'), 'GET routes answer HEAD as well');
  });

  t.test('HEAD on a GET route: headers of the GET reply, no body', async (t) => {
    const get = await server.request('/health', { key: null });
    const getBody = await get.text();
    const head = await server.request('/health', { method: 'HEAD', key: null });
    t.equal(head.status, 200);
    t.equal(head.headers.get('content-type'), get.headers.get('content-type'));
    t.equal(head.headers.get('content-length'), String(Buffer.byteLength(getBody)));
    t.equal((await head.arrayBuffer()).byteLength, 0);
  });

  t.test('CORS preflight echoes the origin and allows credentials', async (t) => {
    const origin = 'http://editor.example:3000';
    const res = await server.request('/api/v1/users/whoami', {
      method: 'OPTIONS',
      key: null,
      headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key, content-type' },
    });
    t.equal(res.status, 204);
    t.equal(res.headers.get('access-control-allow-origin'), origin);
    t.equal(res.headers.get('access-control-allow-credentials'), 'true');
    t.match(res.headers.get('access-control-allow-headers'), /x-api-key/);
    t.match(res.headers.get('access-control-allow-methods'), /GET/);
    t.equal((await res.arrayBuffer()).byteLength, 0);
  });

  t.test('ordinary replies carry CORS headers, errors included', async (t) => {
    const origin = 'http://editor.example:3000';
    const ok = await server.request('/api/v1/users/whoami', { headers: { origin } });
    t.equal(ok.status, 200);
    t.equal(ok.headers.get('access-control-allow-origin'), origin);
    t.equal(ok.headers.get('access-control-allow-credentials'), 'true');
    const missing = await server.request('/nowhere', { headers: { origin } });
    t.equal(missing.status, 404);
    t.equal(missing.headers.get('access-control-allow-origin'), origin);
    const anonymous = await server.request('/health', { key: null });
    t.equal(anonymous.headers.get('access-control-allow-origin'), '*', 'no Origin: any origin, no credentials');
  });

  t.test('an API key in the query string authenticates', async (t) => {
    const res = await server.request(`/api/v1/users/whoami?x-api-key=${encodeURIComponent(server.apiKey)}`, { key: null });
    t.equal(res.status, 200);
    t.equal((await res.json()).username, 'langflow');
  });

  t.test('no key on a user route: 403 with Langflow\'s auto-login message', async (t) => {
    const res = await server.request('/api/v1/users/whoami', { key: null });
    t.equal(res.status, 403);
    t.same(await res.json(), { detail: AUTH_MESSAGES.autoLoginNeedsKey });
  });

  t.test('an invalid key is a 403, in the header or the query', async (t) => {
    const header = await server.request('/api/v1/users/whoami', { key: 'sk-not-a-real-key' });
    t.equal(header.status, 403);
    t.same(await header.json(), { detail: 'Invalid or missing API key' });
    const query = await server.request('/api/v1/users/whoami?x-api-key=sk-not-a-real-key', { key: null });
    t.equal(query.status, 403);
    t.same(await query.json(), { detail: 'Invalid or missing API key' });
  });
});

t.test('without auto-login, a missing key asks for one', async (t) => {
  const server = await startTestServer({ AUTO_LOGIN: 'false' });
  t.teardown(() => server.close());
  const res = await server.request('/api/v1/users/whoami', { key: null });
  t.equal(res.status, 403);
  t.same(await res.json(), { detail: AUTH_MESSAGES.keyRequired });
});
