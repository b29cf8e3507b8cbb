/**
 * A graceful stop with MCP clients connected: their notification streams do not hold the drain until the
 * deadline, and a tool call under way still gets its answer.
 */
import t from 'tap';
import { createFlow } from './support/flow-helpers.js';
import { connectMcp } from './support/mcp-client.js';
import { chatModelFlow, HEADER_KEY, openaiModelTemplate, startModelStack } from './support/model-flows.js';
import { within } from './support/within.js';

t.test('open MCP sessions close as their calls finish; the stop drains long before its deadline', async (t) => {
  const { model, server, close } = await startModelStack();
  t.teardown(close);
  await createFlow(server, chatModelFlow('Stop Model', 'LanguageModelComponent', openaiModelTemplate()));
  const headers = { [`X-FLOWSVC-GLOBAL-VAR-${HEADER_KEY}`]: 'sk-from-header' };
  const streamable = await connectMcp(server, 'streamable', { headers });
  const sse = await connectMcp(server, 'sse', { headers });
  await within(streamable.listening, 'the streamable client listening');
  model.script({ tokens: Array.from({ length: 20 }, (_, i) => ` w${i}`), tokenDelayMs: 20 });
  const asked = model.nextChat();
  const call = streamable.client.callTool({ name: 'stop_model', arguments: { input_value: 'finish me' } });
  await within(asked, 'the call asking its model');
  const graceMs = 20_000;
  const started = performance.now();
  const stopped = await within(server.shutdown(graceMs), 'the graceful stop', graceMs + 5_000);
  t.ok(stopped.drained, 'everything under way finished before the deadline');
  t.ok(performance.now() - started < graceMs / 2, 'the open streams did not hold the stop until its deadline');
  const result = await call;
  t.same(result.content, [{ type: 'text', text: Array.from({ length: 20 }, (_, i) => ` w${i}`).join('') }], 'the call under way got its answer');
  await Promise.all([streamable.client.close(), sse.client.close()]);
});
