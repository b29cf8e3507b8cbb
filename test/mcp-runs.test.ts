/**
 * Tool calls as runs, beyond Langflow: progress as components finish and model tokens as log messages for a call
 * with a progress token; cancelling a call aborts the run and its model request; 50 calls at once over one session
 * each answer their own input.
 */
import t from 'tap';
import { LoggingMessageNotificationSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { createFlow } from './support/flow-helpers.js';
import { echoFlow } from './support/langflow-json.js';
import { connectMcp, type McpConnection } from './support/mcp-client.js';
import type { ModelServer } from './support/model-server.js';
import { chatModelFlow, HEADER_KEY, openaiModelTemplate, startModelStack } from './support/model-flows.js';
import type { TestServer } from './support/server.js';
import { within } from './support/within.js';

let model: ModelServer;
let server: TestServer;
let close: () => Promise<void>;
let mcp: McpConnection;

t.before(async () => {
  ({ model, server, close } = await startModelStack());
  await createFlow(server, echoFlow('Runs Echo'));
  await createFlow(server, chatModelFlow('Runs Model', 'LanguageModelComponent', openaiModelTemplate()));
  mcp = await connectMcp(server, 'streamable', { headers: { [`X-FLOWSVC-GLOBAL-VAR-${HEADER_KEY}`]: 'sk-from-header' } });
});
t.teardown(async () => {
  await mcp.close();
  await close();
});

t.test('a call with a progress token hears each component finish, then gets its answer', async (t) => {
  const progress: Progress[] = [];
  const result = await mcp.client.callTool({ name: 'runs_echo', arguments: { input_value: 'with progress' } }, undefined, { onprogress: (p) => progress.push(p) });
  t.same(result.content, [{ type: 'text', text: 'with progress' }]);
  t.same(progress.map((p) => [p.progress, p.total]), [[1, 2], [2, 2]]);
  t.same(progress.map((p) => p.message), ['Chat Input', 'Chat Output']);
});

t.test("a call with a progress token hears the model's tokens as log messages", async (t) => {
  const logged: string[] = [];
  mcp.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logged.push(String(notification.params.data)));
  t.teardown(() => mcp.client.removeNotificationHandler('notifications/message'));
  const result = await mcp.client.callTool({ name: 'runs_model', arguments: { input_value: 'say something' } }, undefined, { onprogress: () => {} });
  t.same(result.content, [{ type: 'text', text: 'You said: say something' }]);
  t.same(logged.join(''), 'You said: say something', 'the tokens, in order, make the answer');
  t.ok(logged.length > 1, `${logged.length} tokens`);
});

t.test('cancelling a call mid-run aborts the run and its model request', async (t) => {
  model.script({ tokens: Array.from({ length: 200 }, (_, i) => ` t${i}`), tokenDelayMs: 20 });
  const asked = model.nextChat();
  const aborted = model.nextAbort();
  const controller = new AbortController();
  const call = mcp.client.callTool({ name: 'runs_model', arguments: { input_value: 'long' } }, undefined, { signal: controller.signal });
  await within(asked, 'the run asking its model');
  controller.abort('the user changed their mind');
  await t.rejects(call, /changed their mind|abort/i);
  const seen = await within(aborted, 'the model server seeing its request closed');
  t.ok(seen.aborted, 'the model request was closed before its reply ended');
  // The session goes on serving after a cancelled call.
  t.same((await mcp.client.callTool({ name: 'runs_echo', arguments: { input_value: 'after' } })).content, [{ type: 'text', text: 'after' }]);
});

t.test('50 concurrent calls over one session each answer their own input', async (t) => {
  const inputs = Array.from({ length: 50 }, (_, i) => `input number ${i}`);
  const results = await Promise.all(inputs.map((input) => mcp.client.callTool({ name: 'runs_echo', arguments: { input_value: input } })));
  t.same(results.map((result) => result.content), inputs.map((input) => [{ type: 'text', text: input }]));
});

t.test('a failing flow answers an error text, as Langflow does, not a protocol error', async (t) => {
  model.script({ error: { status: 401, message: 'Invalid key.' } });
  const result = await mcp.client.callTool({ name: 'runs_model', arguments: { input_value: 'x' } });
  const content = result.content as { text: string }[];
  t.equal(content.length, 1);
  t.match(content[0].text, /^Error Executing the Runs Model tool\. Error: .*Invalid key\./);
});
