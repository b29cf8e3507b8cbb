/**
 * Merge Flows on the Structured Data Analysis Agent starter's shape: two upstream branches (there: Chroma's search
 * results and a file's contents; here: a Chat Input and a Text Input) into its list `inputs`; running it runs both,
 * and it answers how many values reached it, as Langflow's.
 */
import { LangflowClient } from '@datastax/langflow-client';
import t from 'tap';
import { createFlow } from './support/flow-helpers.js';
import { edge, flow, node } from './support/langflow-json.js';
import { startTestServer } from './support/server.js';

const server = await startTestServer();
t.teardown(() => server.close());

t.test('both branches run, and the merge says how many values reached it', async (t) => {
  const created = await createFlow(
    server,
    flow(
      'Merge',
      [node('ChatInput-mrg01', 'ChatInput', {}, 'Chat Input'), node('TextInput-mrg01', 'TextInput', { input_value: 'a file text' }, 'Text Input'), node('MergeFlows-FmEAa', 'MergeFlows', {}, 'Merge Flows'), node('ChatOutput-mrg01', 'ChatOutput', {}, 'Chat Output')],
      [edge('ChatInput-mrg01', 'message', 'MergeFlows-FmEAa', 'inputs'), edge('TextInput-mrg01', 'text', 'MergeFlows-FmEAa', 'inputs'), edge('MergeFlows-FmEAa', 'done', 'ChatOutput-mrg01', 'input_value')],
    ),
  );
  const response = await new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey }).flow(created.id).run('search results');
  t.equal(response.chatOutputText(), 'Merged 2 flows');
});
