/**
 * The HTTP servers that can serve on this machine: node:http always, uWebSockets.js where a native build loads
 * (the trufflesuite build has binaries for Node 20 only; the fixed one needs glibc 2.38). Suites that test every
 * adapter loop over these; on a Node where uWS cannot load, the uWS suite checks that forcing it fails clearly.
 */
import type { AdapterSetting } from '../../src/edge/adapter-choice.js';
import { chooseAdapter } from '../../src/edge/adapter-choice.js';
import type { EdgeAdapter } from '../../src/edge/uws-server.js';
import { uwsIsNative } from '../../src/edge/uws-native.js';

export const SERVABLE_ADAPTERS: readonly EdgeAdapter[] = uwsIsNative ? ['node', 'uws'] : ['node'];

/** The adapter a test's service would get: FLOWSVC_TEST_HTTP_SERVER (the edge-on-* suites) or the default. */
export async function testAdapter(): Promise<EdgeAdapter> {
  return (await chooseAdapter((process.env.FLOWSVC_TEST_HTTP_SERVER as AdapterSetting | undefined) ?? 'auto')).adapter;
}
