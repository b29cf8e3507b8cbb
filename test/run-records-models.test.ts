/**
 * Records of model runs, against the local model server: the model's span names its model and carries the usage the
 * provider reported, the trace sums it; a failed component leaves an error span, an error transaction and an error
 * trace.
 */
import t from 'tap';
import { createFlow } from './support/flow-helpers.js';
import { chatModelFlow, modelClient, openaiModelTemplate, startModelStack } from './support/model-flows.js';

const { model, server, close } = await startModelStack();
t.teardown(close);

const get = async (path: string) => (await server.request(path)).json();

t.test('a model span has its model and token usage; the trace sums the tokens', async (t) => {
  const created = await createFlow(server, chatModelFlow('Model records', 'LanguageModelComponent', openaiModelTemplate()));
  model.script({ text: 'Four.', usage: { prompt_tokens: 7, completion_tokens: 3 } });
  await modelClient(server).flow(created.id).run('what is 2+2?');

  const { traces } = await get(`/api/v1/monitor/traces?flow_id=${created.id}`);
  t.match(traces[0], { status: 'ok', totalTokens: 10, input: { input_value: 'what is 2+2?' }, output: { message: { text: 'Four.' } } });
  const detail = await get(`/api/v1/monitor/traces/${traces[0].id}`);
  const span = detail.spans.find((s: any) => s.name === 'Language Model');
  t.match(span, { type: 'llm', modelName: 'gpt-4o-mini', tokenUsage: { promptTokens: 7, completionTokens: 3, totalTokens: 10 }, status: 'ok' });
  t.notOk(JSON.stringify(span.inputs).includes('sk-from-header'), "the model's key is not recorded");
  t.same(
    detail.spans.filter((s: any) => s.name !== 'Language Model').map((s: any) => [s.type, s.tokenUsage]),
    [
      ['chain', null],
      ['chain', null],
    ],
    'the components around it are chain spans without usage',
  );
});

t.test('a failed component: an error span, an error transaction, an error trace', async (t) => {
  const created = await createFlow(server, chatModelFlow('Failing model', 'LanguageModelComponent', openaiModelTemplate()));
  model.script({ error: { status: 400, message: 'the prompt is not allowed' } });
  const run = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: 'bad' }, headers: { 'X-FLOWSVC-GLOBAL-VAR-OPENAIKEY': 'sk-x' } });
  t.not(run.status, 200, 'the run failed');

  const { traces } = await get(`/api/v1/monitor/traces?flow_id=${created.id}`);
  t.equal(traces[0].status, 'error');
  const detail = await get(`/api/v1/monitor/traces/${traces[0].id}`);
  const failed = detail.spans.find((s: any) => s.status === 'error');
  t.equal(failed.name, 'Language Model');
  t.match(failed.error, /not allowed/);
  t.equal(failed.modelName, 'gpt-4o-mini');
  const { items } = await get(`/api/v1/monitor/transactions?flow_id=${created.id}`);
  t.same(
    items.map((item: any) => [item.vertex_id, item.status]),
    [
      ['ChatInput-in001', 'success'],
      ['LanguageModelComponent-model1', 'error'],
    ],
  );
  t.match(items[1].error, /not allowed/);
});
