import { LangflowClient } from '@datastax/langflow-client';
import t from 'tap';
import { evaluateExpression } from '../src/components/helpers/arithmetic.js';
import { calculator, formatResult } from '../src/components/helpers/calculator.js';
import { currentDate, formatInZone } from '../src/components/helpers/current-date.js';
import { runComponent } from './support/component-run.js';
import { createFlow } from './support/flow-helpers.js';
import { edge, flow, node } from './support/langflow-json.js';
import { startTestServer } from './support/server.js';

t.test('arithmetic with Python precedence', async (t) => {
  const cases: [string, number][] = [
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['4*4*(33/22)+12-20', 16],
    ['2 ** 3 ** 2', 512],
    ['-2 ** 2', -4],
    ['2 ** -1', 0.5],
    ['2^10', 1024],
    ['--3', 3],
    ['+4 - -4', 8],
    ['1.5e3 / 3', 500],
    ['.5 + 1_000', 1000.5],
    ['10 / 4', 2.5],
  ];
  for (const [expression, expected] of cases) t.equal(evaluateExpression(expression), expected, expression);
});

t.test("results print like Langflow's, at most six decimals", async (t) => {
  const cases: [number, string][] = [
    [16, '16'],
    [1 / 3, '0.333333'],
    [2.5, '2.5'],
    [-0.0000001, '0'],
    [1e-7, '0'],
    [123456789.123456789, '123456789.123457'],
  ];
  for (const [value, expected] of cases) t.equal(formatResult(value), expected, String(value));
  const { result } = await runComponent(calculator, { expression: '22/7' });
  t.same(result.data, { result: '3.142857' });
});

t.test('bad expressions are clear errors', async (t) => {
  const cases: [string, RegExp][] = [
    ['1/0', /Division by zero at position 2/],
    ['5 / (2 - 2)', /Division by zero at position 3/],
    ['0 ** -1', /Division by zero/],
    ['', /The expression is empty/],
    ['2 +', /ends too early/],
    ['(1 + 2', /Expected '\)'/],
    ['1 + 2)', /Unexpected '\)' at position 6/],
    ['__import__("os")', /Unexpected '_' at position 1/],
    ['abs(-1)', /Unexpected 'a' at position 1: only numbers/],
    ['(-8) ** 0.5', /is not a real number/],
    ['10 ** 400', /too large/],
  ];
  for (const [expression, message] of cases) {
    await t.rejects(runComponent(calculator, { expression }), { name: 'ComponentError', message }, expression);
  }
  await t.rejects(runComponent(calculator, { expression: '1/0' }), { message: /^Field "Expression" \(expression\): Division by zero at position 2 in "1\/0"$/ });
});

t.test('current date in a time zone, worded as Langflow words it', async (t) => {
  const instant = new Date(Date.UTC(2025, 6, 14, 21, 5, 9));
  t.equal(formatInZone(instant, 'UTC'), '2025-07-14 21:05:09 UTC');
  t.equal(formatInZone(instant, 'America/New_York'), '2025-07-14 17:05:09 EDT');
  t.equal(formatInZone(instant, 'Asia/Tokyo').slice(0, 19), '2025-07-15 06:05:09');
  const { current_date } = await runComponent(currentDate, { timezone: 'Europe/Paris' });
  t.match(current_date.text, /^Current date and time in Europe\/Paris: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+$/);
  t.match((await runComponent(currentDate, {})).current_date.text, /^Current date and time in UTC: .* UTC$/);
  await t.rejects(runComponent(currentDate, { timezone: 'Mars/Olympus_Mons' }), { message: 'Field "Timezone" (timezone): unknown time zone "Mars/Olympus_Mons"; use an IANA name such as "UTC" or "Europe/Paris"' });
  t.ok(currentDate.fields.timezone.options!.includes('Europe/Paris'), 'the dropdown lists IANA zones');
  t.equal(currentDate.fields.timezone.options![0], 'UTC');
});

t.test('flows through /api/v1/run: calculate the chat input; print the date', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const client = new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey });
  const calc = await createFlow(
    server,
    flow(
      'Calc',
      [node('ChatInput-in001', 'ChatInput', {}, 'Chat Input'), node('CalculatorComponent-c0001', 'CalculatorComponent', {}, 'Calculator'), node('ChatOutput-out01', 'ChatOutput', {}, 'Chat Output')],
      [edge('ChatInput-in001', 'message', 'CalculatorComponent-c0001', 'expression'), edge('CalculatorComponent-c0001', 'result', 'ChatOutput-out01', 'input_value')],
    ),
  );
  t.equal((await client.flow(calc.id).run('(2 + 3) * 4')).chatOutputText(), '```json\n{\n  "result": "20"\n}\n```');
  const bad = await server.request(`/api/v1/run/${calc.id}`, { method: 'POST', json: { input_value: '1/0' } });
  t.equal(bad.status, 500);
  t.match(JSON.stringify(await bad.json()), /CalculatorComponent-c0001.*Division by zero/);

  const date = await createFlow(
    server,
    flow('Date', [node('CurrentDate-d0001', 'CurrentDate', { timezone: 'Asia/Tokyo' }, 'Current Date'), node('ChatOutput-out01', 'ChatOutput', {}, 'Chat Output')], [edge('CurrentDate-d0001', 'current_date', 'ChatOutput-out01', 'input_value')]),
  );
  t.match((await client.flow(date.id).run('')).chatOutputText(), /^Current date and time in Asia\/Tokyo: /);
});
