import { readFileSync } from 'node:fs';
import t from 'tap';
import { mainVersion } from '../src/langflow/version-response.js';
import { startTestServer } from './support/server.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

t.test('GET /api/v1/version answers without a key, with the package version', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());

  const res = await server.request('/api/v1/version', { key: null });
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /application\/json/);
  t.same(await res.json(), { version: pkg.version, main_version: mainVersion(pkg.version), package: 'flowsvc' });
});

t.test('main_version drops the pre-release and build suffixes', async (t) => {
  t.equal(mainVersion('0.1.0'), '0.1.0');
  t.equal(mainVersion('1.7.1-rc.2'), '1.7.1');
  t.equal(mainVersion('2.0.0-alpha'), '2.0.0');
  t.equal(mainVersion('1.2.3+build.7'), '1.2.3');
});
