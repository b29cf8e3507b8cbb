/**
 * Agent: the AI SDK tool-calling loop against the local model server. Black-box with its built-in current-date
 * tool; at engine level with a component in tool mode (Calculator wrapped by withToolMode) connected to `tools`.
 */
import t from 'tap';
import { agent } from '../src/components/agents/agent.js';
import { calculator } from '../src/components/helpers/calculator.js';
import { withToolMode } from '../src/components/tools/tool-mode.js';
import { isMessage, type MessageValue } from '../src/values/message.js';
import { graphOf, harness, type Harness } from './support/engine-harness.js';
import { createFlow } from './support/flow-helpers.js';
import { startModelServer, type ModelServer, type RecordedRequest } from './support/model-server.js';
import { chatModelFlow, keyVariable, modelClient } from './support/model-flows.js';
import { startTestServer, type TestServer } from './support/server.js';

let model: ModelServer;
let server: TestServer;
let engine: Harness;

t.before(async () => {
  model = await startModelServer();
  server = await startTestServer({ FALLBACK_TO_ENV_VAR: 'false' });
  engine = harness();
});
t.teardown(async () => {
  await engine.close();
  await server.close();
  await model.close();
});

const toolMessage = (request: RecordedRequest) => request.body.messages.find((m: { role: string }) => m.role === 'tool');

t.test('an Agent calls its current-date tool and records the step in "Agent Steps"', async (t) => {
  const template = { agent_llm: 'OpenAI', model_name: 'gpt-4.1', api_key: keyVariable(), openai_api_base: model.baseURL, system_prompt: 'You are a clock.' };
  const created = await createFlow(server, chatModelFlow('Agent', 'Agent', template));
  model.script({ toolCalls: [{ name: 'get_current_date', arguments: { timezone: 'UTC' } }] }, (request) => ({ text: `Tool said: ${toolMessage(request)?.content ?? 'nothing'}` }));
  const before = model.chats.length;
  const response = await modelClient(server).flow(created.id).run('What day is it?');

  const [first, second] = model.chats.slice(before);
  t.equal(first.body.model, 'gpt-4.1');
  t.same(first.body.messages, [{ role: 'system', content: 'You are a clock.' }, { role: 'user', content: 'What day is it?' }]);
  t.same(first.body.tools.map((tool: any) => tool.function.name), ['get_current_date']);
  t.same(first.body.tools[0].function.parameters.properties.timezone.type, 'string');
  t.match(toolMessage(second).content, /Current date and time in UTC: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/, 'the tool result went back to the model');
  t.match(response.chatOutputText(), /^Tool said: .*Current date and time in UTC/);

  const message = response.outputs[0].outputs[0].results.message as any;
  t.equal(message.content_blocks.length, 1, 'the Chat Output keeps the Agent\'s content blocks');
  const block = message.content_blocks[0];
  t.equal(block.title, 'Agent Steps');
  t.same(block.contents[0], { type: 'text', text: 'What day is it?', duration: 0, header: { title: 'Input', icon: 'MessageSquare' } });
  t.match(block.contents[1], { type: 'tool_use', name: 'get_current_date', tool_input: { timezone: 'UTC' }, output: /Current date and time in UTC/, error: null });
  t.ok(message.properties.usage.total_tokens > 0, 'usage over both model calls');
});

t.test('a history of the session reaches the agent, without the current input', async (t) => {
  const template = { agent_llm: 'OpenAI', model_name: 'gpt-4o-mini', api_key: keyVariable(), openai_api_base: model.baseURL, add_current_date_tool: false, system_prompt: '' };
  const created = await createFlow(server, chatModelFlow('Agent with history', 'Agent', template));
  const client = modelClient(server).flow(created.id);
  await client.run('first question', { session_id: 'agent-history' });
  const before = model.chats.length;
  await client.run('second question', { session_id: 'agent-history' });
  const request = model.chats[before].body;
  t.same(request.messages, [
    { role: 'user', content: 'first question' },
    { role: 'assistant', content: 'You said: first question' },
    { role: 'user', content: 'second question' },
  ]);
  t.notOk(request.tools, 'no tools: none connected and the date tool is off');
});

/** Calculator in tool mode -> Agent.tools, at engine level (the registry's Calculator is not in tool mode). */
function calculatorAgent(extra: Record<string, unknown> = {}) {
  const params = { agent_llm: 'OpenAI', model_name: 'gpt-4o-mini', api_key: 'sk-engine', openai_api_base: model.baseURL, add_current_date_tool: false, input_value: 'What is 6*7?', max_iterations: 5, ...extra };
  return graphOf([['calc', withToolMode(calculator), {}], ['agent', agent, params]], [['calc', 'component_as_tool', 'agent', 'tools']]);
}

const agentReply = (results: ReadonlyMap<string, Record<string, unknown>>): MessageValue => {
  const response = results.get('agent')?.response;
  if (!isMessage(response)) throw new Error('the agent gave no message');
  return response;
};

t.test('a component in tool mode is a tool: the Calculator answers the agent', async (t) => {
  model.script({ toolCalls: [{ name: 'evaluate_expression', arguments: { expression: '6*7' } }] }, (request) => ({ text: `The answer is ${toolMessage(request)?.content}` }));
  const before = model.chats.length;
  const outcome = await engine.run(calculatorAgent()).outcome;
  t.equal(outcome.status, 'completed');
  const tool = model.chats[before].body.tools[0].function;
  t.equal(tool.name, 'evaluate_expression', 'named after the output\'s method');
  t.equal(tool.description, calculator.description);
  t.same(tool.parameters.required, ['expression'], 'the tool-mode fields are the arguments');
  const reply = agentReply(outcome.results);
  t.equal(reply.text, 'The answer is {"result":"42"}');
  t.match(reply.content_blocks[0].contents[1], { type: 'tool_use', name: 'evaluate_expression', tool_input: { expression: '6*7' }, output: { result: '42' }, error: null });
});

t.test('a failing tool call is recorded and the model is told; max iterations stop a looping agent', async (t) => {
  model.script({ toolCalls: [{ name: 'evaluate_expression', arguments: { expression: '2 +' } }] }, (request) => ({ text: `Sorry: ${toolMessage(request)?.content}` }));
  const failed = await engine.run(calculatorAgent()).outcome;
  const reply = agentReply(failed.results);
  t.match(reply.text, /^Sorry: .*Expression/, 'the error text reached the model');
  t.match(reply.content_blocks[0].contents[1], { name: 'evaluate_expression', output: null, error: /Expression/ });

  const loop = { toolCalls: [{ name: 'evaluate_expression', arguments: { expression: '1+1' } }] };
  model.script(loop, loop);
  const before = model.chats.length;
  const stopped = await engine.run(calculatorAgent({ max_iterations: 2 })).outcome;
  t.equal(model.chats.length, before + 2, 'two model calls, no more');
  t.equal(agentReply(stopped.results).text, 'Agent stopped due to iteration limit or time limit.');
});

t.test('bad tools and a missing input are clear errors', async (t) => {
  const notTool = graphOf([['agent', agent, { api_key: 'k', openai_api_base: model.baseURL, input_value: 'x', tools: ['not a tool'] }]], []);
  const outcome = await engine.run(notTool).outcome;
  t.equal(outcome.status, 'failed');
  t.match(outcome.failure?.error.message, /must be a tool: connect components in Tool Mode/);

  const noInput = await engine.run(graphOf([['agent', agent, { api_key: 'k', openai_api_base: model.baseURL }]], [])).outcome;
  t.match(noInput.failure?.error.message, /The message you want to send to the agent is empty \(input_value\)/);
});

t.test('cancelling a run aborts the agent\'s model call in flight', async (t) => {
  let running: ReturnType<Harness['run']> | undefined;
  model.script(() => {
    setImmediate(() => running!.cancel());
    return { text: 'a slow answer that never completes', tokenDelayMs: 200 };
  });
  const aborted = model.nextAbort();
  running = engine.run(calculatorAgent());
  const outcome = await running.outcome;
  t.equal(outcome.status, 'cancelled');
  const request = await aborted;
  t.ok(request.aborted, 'the model server saw the connection close');
});
