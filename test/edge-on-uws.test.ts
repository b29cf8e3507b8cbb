/**
 * The edge suites on the uws adapter, forced (the default, auto, picks per machine: test/edge*.test.ts run on it).
 * On a Node where no native uWS build loads, forcing it must fail start-up, saying why, rather than serve with the
 * package's slow pure-JS fallback.
 */
import t from 'tap';
import { uwsIsNative } from '../src/edge/uws-native.js';
import { startTestServer } from './support/server.js';

if (uwsIsNative) {
  process.env.FLOWSVC_TEST_HTTP_SERVER = 'uws';
  await import('./edge.test.js');
  await import('./edge-body.test.js');
  await import('./untrusted-bodies.test.js');
  await import('./files-v2.test.js');
  t.teardown(() => void delete process.env.FLOWSVC_TEST_HTTP_SERVER);
} else {
  t.test(`FLOWSVC_HTTP_SERVER=uws on Node ${process.versions.node}, where no native build loads, fails start-up`, async (t) => {
    await t.rejects(startTestServer({ HTTP_SERVER: 'uws' }), /FLOWSVC_HTTP_SERVER=uws: .* has no native binary for Node .*pure-JS fallback is not served/);
  });
}
