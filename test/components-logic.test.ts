import { LangflowClient } from '@datastax/langflow-client';
import t from 'tap';
import { conditionalRouter } from '../src/components/logic/conditional-router.js';
import { createMessage } from '../src/values/message.js';
import { runComponent } from './support/component-run.js';
import { createFlow } from './support/flow-helpers.js';
import { edge, flow, node } from './support/langflow-json.js';
import { startTestServer } from './support/server.js';

const route = (params: Record<string, unknown>, edges?: Record<string, unknown>) => runComponent(conditionalRouter, params, { edges });

t.test('every operator, with and without case sensitivity', async (t) => {
  const cases: [input: string, operator: string, match: string, caseSensitive: boolean, expected: boolean][] = [
    ['Yes', 'equals', 'yes', false, true],
    ['Yes', 'equals', 'yes', true, false],
    ['Yes', 'not equals', 'yes', true, true],
    ['Yes', 'not equals', 'YES', false, false],
    ['the weather today', 'contains', 'WEATHER', false, true],
    ['the weather today', 'contains', 'WEATHER', true, false],
    ['Hello world', 'starts with', 'hello', false, true],
    ['Hello world', 'ends with', 'World', true, false],
    ['order #123', 'regex', 'order #\\d+', true, true],
    ['my order #123', 'regex', 'order', true, false],
    ['ORDER 7', 'regex', 'order \\d', false, true],
    ['2024-01-05', 'regex', '(?P<year>\\d{4})-(?P=year)?', true, true],
    ['3', 'less than', '10', true, true],
    ['10', 'less than or equal', '10', true, true],
    [' 2.5 ', 'greater than', '2', true, true],
    ['-1', 'greater than or equal', '0', true, false],
  ];
  for (const [input_text, operator, match_text, case_sensitive, expected] of cases) {
    const out = await route({ input_text, operator, match_text, case_sensitive });
    t.equal(out.true_result !== undefined, expected, `${input_text} ${operator} ${match_text} (${case_sensitive})`);
    t.equal(out.false_result !== undefined, !expected, 'exactly one branch is chosen');
  }
});

t.test('the chosen branch carries the case message, else the input text', async (t) => {
  const plain = await route({ input_text: 'go', match_text: 'go' });
  t.equal(plain.true_result.text, 'go');
  t.equal(plain.false_result, undefined);
  const custom = await route({ input_text: 'stop', match_text: 'go' }, { true_case_message: 'yes!', false_case_message: createMessage({ text: 'no!', sender: 'Machine' }) });
  t.equal(custom.false_result.text, 'no!');
  t.equal(custom.false_result.sender, 'Machine');
});

t.test('what Langflow silently answers false for is an error here', async (t) => {
  await t.rejects(route({ input_text: 'x', operator: 'regex', match_text: '(unclosed' }), { name: 'ComponentError', message: /^Field "Match Text" \(match_text\): invalid regular expression "\(unclosed"/ });
  await t.rejects(route({ input_text: 'ten', operator: 'less than', match_text: '5' }), { message: 'Field "Text Input" (input_text): "less than" compares numbers, and "ten" is not a number' });
  await t.rejects(route({ input_text: '1', operator: 'greater than', match_text: '' }), { message: /Field "Match Text" \(match_text\)/ });
  await t.rejects(route({ input_text: '1', operator: 'is about', match_text: '1' }), { message: /Field "Operator" \(operator\)/ });
});

t.test('through /api/v1/run only the chosen branch runs', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const created = await createFlow(
    server,
    flow(
      'Router',
      [
        node('ChatInput-in001', 'ChatInput', {}, 'Chat Input'),
        node('ConditionalRouter-r0001', 'ConditionalRouter', { operator: 'contains', match_text: 'refund', case_sensitive: false }, 'If-Else'),
        node('Prompt-yes01', 'Prompt', { template: 'REFUND: {q}' }, 'Refund Prompt'),
        node('Prompt-no001', 'Prompt', { template: 'OTHER: {q}' }, 'Other Prompt'),
        node('ChatOutput-yes01', 'ChatOutput', {}, 'Refund Output'),
        node('ChatOutput-no001', 'ChatOutput', {}, 'Other Output'),
      ],
      [
        edge('ChatInput-in001', 'message', 'ConditionalRouter-r0001', 'input_text'),
        edge('ConditionalRouter-r0001', 'true_result', 'Prompt-yes01', 'q'),
        edge('ConditionalRouter-r0001', 'false_result', 'Prompt-no001', 'q'),
        edge('Prompt-yes01', 'prompt', 'ChatOutput-yes01', 'input_value'),
        edge('Prompt-no001', 'prompt', 'ChatOutput-no001', 'input_value'),
      ],
    ),
  );
  const client = new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey }).flow(created.id);
  const refund = await client.run('I want a REFUND please');
  t.same(refund.outputs[0]!.outputs.map((o: { component_id: string }) => o.component_id), ['ChatOutput-yes01']);
  t.equal(refund.chatOutputText(), 'REFUND: I want a REFUND please');
  const other = await client.run('hello');
  t.same(other.outputs[0]!.outputs.map((o: { component_id: string }) => o.component_id), ['ChatOutput-no001']);
  t.equal(other.chatOutputText(), 'OTHER: hello');
});
