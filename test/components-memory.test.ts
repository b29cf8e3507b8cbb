import { LangflowClient } from '@datastax/langflow-client';
import t from 'tap';
import { memory } from '../src/components/helpers/memory.js';
import { createMessage, type MessageValue } from '../src/values/message.js';
import { memoryStub, runComponent } from './support/component-run.js';
import { createFlow } from './support/flow-helpers.js';
import { edge, node } from './support/langflow-json.js';
import { startTestServer } from './support/server.js';

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

t.test('retrieves the session history as text and as a table', async (t) => {
  const cases: [params: Record<string, unknown>, expected: string][] = [
    [{}, 'User: hi\nAI: hello\nUser: how are you?\nBot: fine'],
    [{ order: 'Descending' }, 'Bot: fine\nUser: how are you?\nAI: hello\nUser: hi'],
    [{ n_messages: 2 }, 'User: how are you?\nBot: fine'],
    [{ n_messages: 2, order: 'Descending' }, 'Bot: fine\nUser: how are you?'],
    [{ n_messages: 0 }, ''],
    [{ sender_type: 'User' }, 'User: hi\nUser: how are you?'],
    [{ sender_type: 'Machine' }, 'AI: hello\nBot: fine'],
    [{ sender_name: 'Bot' }, 'Bot: fine'],
    [{ template: '[{sender}] {text} {nothing_here}|' }, '[User] hi |\n[Machine] hello |\n[User] how are you? |\n[Machine] fine |'],
    [{ template: '{timestamp}' }, '2025-01-01 12:00:01 UTC\n2025-01-01 12:00:02 UTC\n2025-01-01 12:00:04 UTC\n2025-01-01 12:00:06 UTC'],
  ];
  for (const [params, expected] of cases) t.equal((await retrieve(params)).messages_text.text, expected, JSON.stringify(params));
  const { dataframe } = await retrieve({ n_messages: 1 });
  t.equal(dataframe.kind, 'table');
  t.match(dataframe.rows, [{ text: 'fine', sender: 'Machine', sender_name: 'Bot', session_id: 'session-1' }]);
});

t.test('only the run session (or the one named) is read; error messages are left out even at the limit', async (t) => {
  t.equal((await retrieve({}, 'session-2')).messages_text.text, 'User: other session');
  t.equal((await retrieve({ session_id: 'session-2' })).messages_text.text, 'User: other session');
  t.equal((await retrieve({}, 'nobody')).messages_text.text, '');
  t.equal((await retrieve({ n_messages: 1, sender_type: 'Machine' })).messages_text.text, 'Bot: fine');
  t.notMatch((await retrieve({ n_messages: 2 })).messages_text.text, 'it broke');
});

t.test('store mode stores the message in the session and returns the stored copy', async (t) => {
  const stub = memoryStub();
  const { stored_messages } = await runComponent(memory, { mode: 'Store', message: 'remember this' }, { memory: stub });
  t.equal(stored_messages.text, 'remember this');
  t.equal(stored_messages.sender, 'Machine');
  t.equal(stored_messages.sender_name, 'AI');
  t.equal(stored_messages.session_id, 'session-1');
  t.type(stored_messages.id, 'string');
  t.equal(stub.messages.length, 1);
  const asUser = await runComponent(memory, { mode: 'Store', message: 'me', sender: 'User', session_id: 'elsewhere' }, { memory: stub });
  t.match(asUser.stored_messages, { sender: 'User', sender_name: 'User', session_id: 'elsewhere' });
});

t.test('bad settings are errors naming the field', async (t) => {
  await t.rejects(runComponent(memory, { mode: 'Store' }), { message: /Field "Message" \(message\): there is no message to store/ });
  await t.rejects(runComponent(memory, { order: 'Sideways' }), { message: /Field "Order" \(order\)/ });
  await t.rejects(runComponent(memory, { n_messages: -1 }), { message: /Field "Number of Messages" \(n_messages\)/ });
  await t.rejects(runComponent(memory, { mode: 'Erase' }), { message: /Field "Mode" \(mode\)/ });
  await t.rejects(runComponent(memory, {}, { edges: { memory: { some: 'memory' } } }), { message: /Field "External Memory" \(memory\)/ });
  await t.rejects(runComponent(memory, { template: 'broken {' }), { message: /Field "Template" \(template\)/ });
});
