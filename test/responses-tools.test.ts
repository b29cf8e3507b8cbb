/**
 * An agent flow's tool calls on /api/v1/responses: `function_call` items before the message by default,
 * Langflow's `tool_call` items (tool_name, queries, results) with `include: ["tool_call.results"]`, in the plain
 * reply and in the stream, read from the Agent's "Agent Steps".
 */
import OpenAI from 'openai';
import t from 'tap';
import { createFlow } from './support/flow-helpers.js';
import { edge, flow, node } from './support/langflow-json.js';
import type { ModelServer, RecordedRequest } from './support/model-server.js';
import { keyVariable, startModelStack } from './support/model-flows.js';
import { openaiClient } from './support/responses.js';
import type { TestServer } from './support/server.js';

let model: ModelServer;
let server: TestServer;
let close: () => Promise<void>;
let client: OpenAI;
let agentFlowId: string;

const INCLUDE_RESULTS = ['tool_call.results'] as never;

t.before(async () => {
  ({ model, server, close } = await startModelStack());
  client = openaiClient(server);
  // Chat Input -> Agent (with the Calculator as a tool, and its built-in current-date tool) -> Chat Output.
  const agentFields = { agent_llm: 'OpenAI', model_name: 'gpt-4o-mini', api_key: keyVariable(), openai_api_base: model.baseURL, system_prompt: 'Use tools.' };
  const agentFlow = flow(
    'Agent with tools',
    [node('ChatInput-in001', 'ChatInput'), node('CalculatorComponent-calc1', 'CalculatorComponent', {}, 'Calculator'), node('Agent-agent1', 'Agent', agentFields, 'Agent'), node('ChatOutput-out01', 'ChatOutput')],
    [
      edge('ChatInput-in001', 'message', 'Agent-agent1', 'input_value'),
      edge('CalculatorComponent-calc1', 'component_as_tool', 'Agent-agent1', 'tools'),
      edge('Agent-agent1', 'response', 'ChatOutput-out01', 'input_value'),
    ],
  );
  agentFlowId = (await createFlow(server, agentFlow)).id;
});
t.teardown(() => close());

const toolResults = (request: RecordedRequest) => request.body.messages.filter((m: { role: string }) => m.role === 'tool').map((m: { content: string }) => m.content);

/** Two tool calls in one model turn (one of them failing), then an answer quoting what the tools said. */
function scriptTwoCalls(): void {
  model.script(
    {
      toolCalls: [
        { name: 'evaluate_expression', arguments: { expression: '6*7' } },
        { name: 'get_current_date', arguments: { timezone: 'UTC' } },
      ],
    },
    (request) => ({ text: `Tools said: ${toolResults(request).join(' | ')}` }),
  );
}

t.test('tool calls are function_call items before the message', async (t) => {
  scriptTwoCalls();
  const response = await client.responses.create({ model: agentFlowId, input: 'What is 6*7, and what day is it?' });
  t.match(response.output_text, /^Tools said: \{"result":"42"\} \| Current date and time in UTC/);
  t.equal(response.output.length, 3);
  t.same(response.output[0], { id: 'fc_1', type: 'function_call', status: 'completed', name: 'evaluate_expression', arguments: '{"expression":"6*7"}', call_id: 'call_1' });
  t.same(response.output[1], { id: 'fc_2', type: 'function_call', status: 'completed', name: 'get_current_date', arguments: '{"timezone":"UTC"}', call_id: 'call_2' });
  t.match(response.output[2], { type: 'message', role: 'assistant' });
  t.ok(response.usage && response.usage.total_tokens > 0, 'the agent\'s usage over both model calls');
});

t.test('include tool_call.results: tool_call items with the queries and the raw results', async (t) => {
  scriptTwoCalls();
  const response = await client.responses.create({ model: agentFlowId, input: 'again, with results', include: INCLUDE_RESULTS });
  const [calc, date, message] = response.output as any[];
  t.same(calc, { id: 'evaluate_expression_1', type: 'tool_call', status: 'completed', tool_name: 'evaluate_expression', queries: ['6*7'], results: { result: '42' } });
  t.match(date, { id: 'get_current_date_2', type: 'tool_call', tool_name: 'get_current_date', queries: ['UTC'], results: /Current date and time in UTC/ });
  t.equal(message.type, 'message');
});

t.test('a failed tool call reports its error as the result', async (t) => {
  model.script({ toolCalls: [{ name: 'evaluate_expression', arguments: { expression: '2 +' } }] }, { text: 'I could not compute that.' });
  const response = await client.responses.create({ model: agentFlowId, input: '2 + ?', include: INCLUDE_RESULTS });
  t.match(response.output[0], { type: 'tool_call', tool_name: 'evaluate_expression', queries: ['2 +'], results: { error: /Expression/ } });
});

t.test('a reply without tool calls has only the message', async (t) => {
  model.script({ text: 'No tools needed.' });
  const response = await client.responses.create({ model: agentFlowId, input: 'hello' });
  t.same(response.output.map((item) => item.type), ['message']);
  t.equal(response.output_text, 'No tools needed.');
});

t.test('streamed: function_call items with their arguments, then the message; responses.stream() assembles it', async (t) => {
  scriptTwoCalls();
  const stream = await client.responses.create({ model: agentFlowId, input: 'stream the tools', stream: true });
  const typed: any[] = [];
  for await (const event of stream) typed.push(event);
  const added = typed.filter((e) => e.type === 'response.output_item.added');
  t.same(added.map((e) => [e.output_index, e.item.type, e.item.status]), [[0, 'function_call', 'in_progress'], [1, 'function_call', 'in_progress'], [2, 'message', 'in_progress']]);
  const args = typed.filter((e) => e.type === 'response.function_call_arguments.done');
  t.same(args.map((e) => [e.item_id, e.name, e.arguments]), [['fc_1', 'evaluate_expression', '{"expression":"6*7"}'], ['fc_2', 'get_current_date', '{"timezone":"UTC"}']]);
  const text = typed.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join('');
  t.match(text, /^Tools said: /, 'the agent\'s reply (not streamed by the model) arrives as a delta');
  const completed = typed.at(-1);
  t.equal(completed.type, 'response.completed');
  t.same(completed.response.output.map((item: { id: string }) => item.id), ['fc_1', 'fc_2', added[2].item.id], 'the stream\'s items are the Response\'s');

  scriptTwoCalls();
  const final = await client.responses.stream({ model: agentFlowId, input: 'with the helper', include: INCLUDE_RESULTS }).finalResponse();
  t.same(final.output.map((item: any) => item.type), ['tool_call', 'tool_call', 'message']);
  t.match(final.output_text, /^Tools said: /);
});
