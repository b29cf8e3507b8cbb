/**
 * Cookies that do not percent-decode, through the real edge on every adapter: once a 500 on every protected route,
 * without a key. An undecodable cookie is ignored (as browsers and frameworks do): no key is still a refusal, a
 * valid key or token beside it still works.
 */
import t from 'tap';
import { SERVABLE_ADAPTERS } from './support/adapters.js';
import { login } from './support/auth.js';
import { startTestServer } from './support/server.js';

const UNDECODABLE = ['%%%', '%E0%A4%A', '%', '%zz', '%C0%AF', `${'%'.repeat(5000)}`];

for (const adapter of SERVABLE_ADAPTERS) {
  t.test(`${adapter}: malformed cookies never fail a request`, async (t) => {
    const server = await startTestServer({ HTTP_SERVER: adapter });
    t.teardown(() => server.close());
    for (const value of UNDECODABLE) {
      const what = JSON.stringify(value.slice(0, 12));
      const anonymous = await server.request('/api/v1/flows/', { key: null, headers: { cookie: `access_token_lf=${value}` } });
      t.ok(anonymous.status === 401 || anonymous.status === 403, `access_token_lf=${what} alone: ${anonymous.status}, a refusal`);
      t.match(await anonymous.json(), { detail: String }, 'in the documented shape');
      const keyed = await server.request('/api/v1/flows/', { headers: { cookie: `a=${value}; access_token_lf=${value}; client_id=${value}` } });
      t.equal(keyed.status, 200, `a=${what} beside a valid key: 200`);
      const v2 = await server.request('/api/v2/workflows?job_id=x', { key: null, headers: { cookie: `access_token_lf=${value}` } });
      t.ok(v2.status === 401 || v2.status === 403, `v2 without a key: ${v2.status}`);
    }
    const tokens = (await (await login(server, 'langflow', 'test-password')).json()) as { access_token: string };
    const byCookie = await server.request('/api/v1/flows/', { key: null, headers: { cookie: `a=%%%; access_token_lf=${tokens.access_token}; b=%E0%A4%A` } });
    t.equal(byCookie.status, 200, 'a valid token cookie among undecodable ones still signs in');
    const refresh = await server.request('/api/v1/refresh', { method: 'POST', key: null, headers: { cookie: 'refresh_token_lf=%%%' } });
    t.ok(refresh.status >= 400 && refresh.status < 500, `refresh with an undecodable cookie: ${refresh.status}`);
    const publicBuild = await server.request(`/api/v1/build_public_tmp/00000000-0000-4000-8000-000000000000/flow`, { method: 'POST', key: null, headers: { cookie: 'client_id=%E0%A4%A' } });
    t.ok(publicBuild.status >= 400 && publicBuild.status < 500, `a public build with an undecodable client_id: ${publicBuild.status}`);
    t.equal((await server.request('/health')).status, 200);
  });
}
