/** The checks of test/components-prompt.test.ts that run parts of the real Langflow exports in ../shared/langflow-starters. */
import { LangflowClient } from '@datastax/langflow-client';
import t from 'tap';
import { promptComponent, type PromptMessage } from '../src/components/prompts/prompt.js';
import { runComponent } from '../test/support/component-run.js';
import { createFlow } from '../test/support/flow-helpers.js';
import { edge, flow, node } from '../test/support/langflow-json.js';
import { startTestServer } from '../test/support/server.js';
import { starterSubflow, starterValues } from '../test/support/starter-nodes.js';

const render = async (template: string, variables: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
  (await runComponent(promptComponent, { template, ...extra, ...variables })).prompt as PromptMessage;

t.test('starter flows through /api/v1/run: the Twitter Thread Generator prompt with its six text inputs', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const ids = ['TextInput-i5Z2Y', 'TextInput-OAt8o', 'TextInput-58oH9', 'TextInput-3nKXg', 'TextInput-rIJMY', 'TextInput-MlxGC', 'Prompt-JXzxV'];
  const body = starterSubflow('Twitter Thread Generator', ids, {
    nodes: [node('ChatOutput-out01', 'ChatOutput', {}, 'Chat Output')],
    edges: [edge('Prompt-JXzxV', 'prompt', 'ChatOutput-out01', 'input_value')],
  });
  const created = await createFlow(server, body);
  const reply = await new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey }).flow(created.id).run('');
  const text = reply.chatOutputText()!;
  t.match(text, `<profile_type>\n\n${starterValues('Twitter Thread Generator', 'TextInput-MlxGC').input_value}\n\n</profile_type>`);
  t.match(text, '<output_format>\n\nthread\n\n</output_format>');
  t.match(text, 'Explain each input variable:\n\n{PROFILE_TYPE}\n\n{PROFILE_DETAILS}', 'doubled braces are literal single braces');
  t.notMatch(text, /\{\{|\}\}/, 'no doubled brace survives');

  // The 1.8 export of the same starter (with its `use_double_brackets` and `mode` fields) gives the same prompt.
  const newer = await createFlow(server, starterSubflow('v1.8.0-dev/Twitter Thread Generator', ids, { nodes: body.data.nodes.slice(-1), edges: body.data.edges.slice(-1) }));
  t.equal((await new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey }).flow(newer.id).run('')).chatOutputText(), text);

  // A tweak replaces one text input's value: the prompt follows.
  const tweaked = await new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey }).flow(created.id).run('', { tweaks: { 'TextInput-OAt8o': { input_value: 'single_tweet' } } });
  t.match(tweaked.chatOutputText(), '<output_format>\n\nsingle_tweet\n\n</output_format>');
});
