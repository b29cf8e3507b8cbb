/** The checks of test/components-memory.test.ts that run parts of the real Langflow exports in ../shared/langflow-starters. */
import { LangflowClient } from '@datastax/langflow-client';
import t from 'tap';
import { memory } from '../src/components/helpers/memory.js';
import { createMessage, type MessageValue } from '../src/values/message.js';
import { memoryStub, runComponent } from '../test/support/component-run.js';
import { createFlow } from '../test/support/flow-helpers.js';
import { edge, node } from '../test/support/langflow-json.js';
import { startTestServer } from '../test/support/server.js';
import { starterSubflow } from '../test/support/starter-nodes.js';

function history(): MessageValue[] {
  const at = (i: number) => new Date(Date.UTC(2025, 0, 1, 12, 0, i)).toISOString();
  const say = (i: number, sender: 'User' | 'Machine', text: string, session = 'session-1', extra: Partial<MessageValue> = {}) =>
    createMessage({ text, sender, sender_name: sender === 'User' ? 'User' : 'AI', session_id: session, timestamp: at(i), ...extra });
  return [
    say(1, 'User', 'hi'),
    say(2, 'Machine', 'hello'),
    say(3, 'User', 'other session', 'session-2'),
    say(4, 'User', 'how are you?'),
    say(5, 'Machine', 'it broke', 'session-1', { error: true }),
    say(6, 'Machine', 'fine', 'session-1', { sender_name: 'Bot' }),
  ];
}

const retrieve = async (params: Record<string, unknown> = {}, sessionId = 'session-1') =>
  runComponent(memory, params, { memory: memoryStub(history()), sessionId });

t.test('the Memory Chatbot nodes through /api/v1/run: history per session, never across sessions', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const body = starterSubflow('Memory Chatbot', ['ChatInput-xLWhw', 'Memory-MKGtC', 'Prompt-9wc4j'], {
    nodes: [node('ChatOutput-out01', 'ChatOutput', {}, 'Chat Output')],
    edges: [edge('Prompt-9wc4j', 'prompt', 'ChatOutput-out01', 'input_value')],
  });
  const created = await createFlow(server, body);
  const chat = new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey }).flow(created.id);

  await chat.run('my name is Ada', { session_id: 'alice' });
  const second = (await chat.run('what is my name?', { session_id: 'alice' })).chatOutputText()!;
  t.match(second, 'History: \n\nUser: my name is Ada\nAI: You are a helpful assistant', 'the earlier turn and the answer are in the prompt');

  const stranger = (await chat.run('hello', { session_id: 'bob' })).chatOutputText()!;
  t.notMatch(stranger, 'Ada', "another session does not see alice's history (Langflow's hidden session_id would)");
});
