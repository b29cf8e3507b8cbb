/**
 * A client that vanishes mid-call (its connection closed, no cancel sent) leaves no running job: the run is
 * cancelled and its model request closed, over each transport.
 */
import t from 'tap';
import { createFlow } from './support/flow-helpers.js';
import { connectMcp, type McpConnectOptions, type McpTransportKind } from './support/mcp-client.js';
import type { ModelServer } from './support/model-server.js';
import { chatModelFlow, HEADER_KEY, openaiModelTemplate, startModelStack } from './support/model-flows.js';
import type { TestServer } from './support/server.js';
import { within } from './support/within.js';

let model: ModelServer;
let server: TestServer;
let close: () => Promise<void>;

t.before(async () => {
  ({ model, server, close } = await startModelStack());
  await createFlow(server, chatModelFlow('Gone Model', 'LanguageModelComponent', openaiModelTemplate()));
});
t.teardown(() => close());

const cases: [string, McpTransportKind, McpConnectOptions][] = [
  ['streamable, stateful', 'streamable', {}],
  ['streamable, stateless', 'streamable', { stateless: true }],
  ['legacy SSE', 'sse', {}],
];

for (const [what, kind, options] of cases) {
  t.test(`${what}: the client vanishing mid-call cancels the run and its model request`, async (t) => {
    const mcp = await connectMcp(server, kind, { ...options, headers: { [`X-FLOWSVC-GLOBAL-VAR-${HEADER_KEY}`]: 'sk-from-header' } });
    model.script({ tokens: Array.from({ length: 200 }, (_, i) => ` t${i}`), tokenDelayMs: 20 });
    const asked = model.nextChat();
    const aborted = model.nextAbort();
    const call = mcp.client.callTool({ name: 'gone_model', arguments: { input_value: 'long' } });
    call.catch(() => undefined);
    await within(asked, 'the run asking its model');
    t.equal(server.services.runs.activeCounts().in_progress, 1, 'the call is running');
    // Gone without a word: the transport's connections close, no notifications/cancelled is sent.
    await mcp.client.transport!.close();
    const seen = await within(aborted, 'the model server seeing its request closed');
    t.ok(seen.aborted, 'the model request was closed before its reply ended');
    await within(server.services.runs.drain(), 'no run left in progress');
    t.same(server.services.runs.activeCounts(), { queued: 0, in_progress: 0 });
  });
}
