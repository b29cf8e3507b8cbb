import { LangflowClient } from '@datastax/langflow-client';
import t from 'tap';
import { promptComponent, type PromptMessage } from '../src/components/prompts/prompt.js';
import { runComponent } from './support/component-run.js';
import { createFlow } from './support/flow-helpers.js';
import { edge, flow, node } from './support/langflow-json.js';
import { startTestServer } from './support/server.js';

const render = async (template: string, variables: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
  (await runComponent(promptComponent, { template, ...extra, ...variables })).prompt as PromptMessage;

t.test('f-string templates fill {variables} and keep doubled braces literal', async (t) => {
  const cases: [template: string, variables: Record<string, unknown>, expected: string][] = [
    ['Hello {name}!', { name: 'Ada' }, 'Hello Ada!'],
    ['{a} and {b} and {a}', { a: '1', b: '2' }, '1 and 2 and 1'],
    ['JSON: {{"key": "{value}"}}', { value: 'v' }, 'JSON: {"key": "v"}'],
    ['{{literal}} {{{wrapped}}}', { wrapped: 'x' }, '{literal} {x}'],
    ['no variables at all', {}, 'no variables at all'],
    ['missing: [{gone}]', {}, 'missing: []'],
    ['{price:>8}|{name:<5}|', { price: '9.99', name: 'ab' }, '    9.99|ab   |'],
    ['multi\nline {x}\n', { x: 'y' }, 'multi\nline y\n'],
    ['', {}, ''],
  ];
  for (const [template, variables, expected] of cases) {
    t.equal((await render(template, variables)).text, expected, JSON.stringify(template));
  }
});

t.test('the message keeps its template and the values it used', async (t) => {
  const message = await render('Q: {question} ({unused_in_values})', { question: 'why?' });
  t.equal(message.text, 'Q: why? ()');
  t.equal(message.template, 'Q: {question} ({unused_in_values})');
  t.same(message.variables, { question: 'why?', unused_in_values: '' });
  t.equal(message.kind, 'message');
});

t.test('variables arriving on edges are turned into text first', async (t) => {
  const { createMessage } = await import('../src/values/message.js');
  const { createData } = await import('../src/values/data.js');
  const result = await runComponent(promptComponent, { template: '{m} / {d}' }, { edges: { m: createMessage({ text: 'from a message' }), d: createData({ text: 'from data' }) } });
  t.equal(result.prompt.text, 'from a message / from data');
});

t.test('invalid templates are errors naming the template field and the culprit', async (t) => {
  const cases: [string, RegExp][] = [
    ['Hello {first name}', /Field "Template" \(template\): Invalid variable \{first name\}: a name cannot contain spaces/],
    ['{a.b}', /\{a\.b\}.*cannot contain '\.'/],
    ['{1st}', /cannot start with a digit/],
    ['{template}', /"template" is reserved/],
    ['{}', /has no variable name/],
    ['{0}', /has no variable name/],
    ['open { brace', /Single '\{' at position 5 is never closed/],
    ['close } brace', /Single '\}' at position 6/],
    ['{x!z}', /Unknown conversion/],
    ['{x:Q}', /Invalid format specifier 'Q' in \{x:Q\}/],
    ['{"key": "value"}', /Invalid format specifier/],
  ];
  for (const [template, message] of cases) {
    await t.rejects(render(template, { x: '1', a: '1' }), { name: 'ComponentError', message }, template);
  }
});

t.test('double-bracket mode: {{var}} only, single braces literal, values never re-expanded', async (t) => {
  const mustache = (template: string, variables: Record<string, unknown>) => render(template, variables, { use_double_brackets: true });
  t.equal((await mustache('Hi {{name}}, {not_a_var}', { name: 'Ada' })).text, 'Hi Ada, {not_a_var}');
  t.equal((await mustache('{{a}}{{b}}', { a: '{{b}}', b: 'B' })).text, '{{b}}B', 'a value containing a tag stays as it is');
  t.equal((await mustache('{{missing}}!', {})).text, '!');
  t.same((await mustache('{{x}} {{y}} {{x}}', { x: '1', y: '2' })).variables, { x: '1', y: '2' });
  for (const bad of ['{{#items}}x{{/items}}', '{{> partial}}', '{{{raw}}}', '{{& raw}}', '{{! note }}', '{{a b}}', '{{9lives}}']) {
    await t.rejects(mustache(bad, {}), { name: 'ComponentError', message: /Field "Template" \(template\)/ }, bad);
  }
});

t.test('a chat question fills a prompt variable through an edge; an invalid template fails naming the node', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const client = new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey });
  const build = (template: string) =>
    flow(
      'Prompted',
      [node('ChatInput-in001', 'ChatInput', {}, 'Chat Input'), node('Prompt-p0001', 'Prompt', { template, question: '' }, 'Prompt'), node('ChatOutput-out01', 'ChatOutput', {}, 'Chat Output')],
      [edge('ChatInput-in001', 'message', 'Prompt-p0001', 'question'), edge('Prompt-p0001', 'prompt', 'ChatOutput-out01', 'input_value')],
    );
  const good = await createFlow(server, build('Answer briefly: {question}'));
  t.equal((await client.flow(good.id).run('what is 2+2?')).chatOutputText(), 'Answer briefly: what is 2+2?');

  const bad = await createFlow(server, build('Answer {the question}'));
  const res = await server.request(`/api/v1/run/${bad.id}`, { method: 'POST', json: { input_value: 'x' } });
  t.equal(res.status, 500);
  t.match(JSON.stringify(await res.json()), /Prompt-p0001.*Invalid variable \{the question\}/);
});
