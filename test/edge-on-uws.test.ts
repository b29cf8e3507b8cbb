/** The edge suites on the uws adapter, forced (the default, auto, picks per machine: test/edge*.test.ts run on it). */
import t from 'tap';

process.env.FLOWSVC_TEST_HTTP_SERVER = 'uws';
await import('./edge.test.js');
await import('./edge-body.test.js');
await import('./untrusted-bodies.test.js');
t.teardown(() => void delete process.env.FLOWSVC_TEST_HTTP_SERVER);
