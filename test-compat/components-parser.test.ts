/** The checks of test/components-parser.test.ts that run parts of the real Langflow exports in ../shared/langflow-starters. */
import { LangflowClient } from '@datastax/langflow-client';
import t from 'tap';
import { parser } from '../src/components/processing/parser.js';
import { createData } from '../src/values/data.js';
import { createMessage } from '../src/values/message.js';
import { createTable } from '../src/values/table.js';
import { runComponent } from '../test/support/component-run.js';
import { createFlow } from '../test/support/flow-helpers.js';
import { edge, node } from '../test/support/langflow-json.js';
import { startTestServer } from '../test/support/server.js';
import { starterSubflow, starterValues } from '../test/support/starter-nodes.js';

const parse = async (input: unknown, params: Record<string, unknown> = {}) => (await runComponent(parser, params, { edges: { input_data: input } })).parsed_text.text as string;

const people = createTable([
  { name: 'Ada', age: 36 },
  { name: 'Alan', age: 41.5 },
]);

t.test('the Financial Report Parser node through /api/v1/run, fed a table by Type Convert', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());
  const body = starterSubflow('Financial Report Parser', ['ChatInput-AT9yi', 'ParserComponent-FWDxd', 'ChatOutput-XvCBo'], {
    nodes: [node('TypeConverterComponent-tc001', 'TypeConverterComponent', { output_type: 'DataFrame', auto_parse: true }, 'Type Convert')],
    edges: [edge('ChatInput-AT9yi', 'message', 'TypeConverterComponent-tc001', 'input_data'), edge('TypeConverterComponent-tc001', 'dataframe_output', 'ParserComponent-FWDxd', 'input_data')],
  });
  const created = await createFlow(server, body);
  const csv = 'EBITDA,NET_INCOME,GROSS_PROFIT\n900,400,1200\n950,410,1300';
  const reply = await new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey }).flow(created.id).run(csv);
  t.equal(starterValues('Financial Report Parser', 'ParserComponent-FWDxd').pattern, 'EBITDA: {EBITDA}  ,  Net Income: {NET_INCOME} , GROSS_PROFIT: {GROSS_PROFIT}');
  t.equal(reply.chatOutputText(), 'EBITDA: 900  ,  Net Income: 400 , GROSS_PROFIT: 1200\nEBITDA: 950  ,  Net Income: 410 , GROSS_PROFIT: 1300');

  const res = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: 'a,b\n1,2' } });
  t.equal(res.status, 500, 'rows without the template columns fail the run');
  t.match(JSON.stringify(await res.json()), /ParserComponent-FWDxd.*row 0 has no column \\"EBITDA\\"/);
});
