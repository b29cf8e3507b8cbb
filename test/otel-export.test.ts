/**
 * OpenTelemetry export against a local OTLP/HTTP receiver: a root span per run, a child per component linked to it,
 * GenAI attributes on the model's span. (test/otel-not-loaded.test.ts: without an endpoint nothing of it loads.)
 */
import t from 'tap';
import { createFlow } from './support/flow-helpers.js';
import { chatModelFlow, modelClient, openaiModelTemplate, startModelStack } from './support/model-flows.js';
import { startOtlpReceiver } from './support/otlp-receiver.js';

t.test('a run exports a root span and a child span per component', async (t) => {
  const receiver = await startOtlpReceiver();
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
  // The batch goes out soon after the run rather than after the SDK's default five seconds.
  process.env.OTEL_BSP_SCHEDULE_DELAY = '20';
  const stack = await startModelStack();
  t.teardown(async () => {
    delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    await stack.close();
    await receiver.close();
  });
  const created = await createFlow(stack.server, chatModelFlow('Exported', 'LanguageModelComponent', openaiModelTemplate()));
  stack.model.script({ text: 'Hi.', usage: { prompt_tokens: 5, completion_tokens: 2 } });
  await modelClient(stack.server).flow(created.id).run('hello');

  const root = await receiver.spanWhere((span) => span.attributes['flowsvc.flow.id'] === created.id);
  t.equal(root.parentSpanId, undefined, 'the run is the root');
  t.equal(root.name, 'flow Exported');
  t.match(root.attributes, { 'flowsvc.run.status': 'completed', 'session.id': String });
  const children = ['Chat Input', 'Language Model', 'Chat Output'];
  const spans = await Promise.all(children.map((name) => receiver.spanWhere((span) => span.traceId === root.traceId && span.name === name)));
  for (const span of spans) t.equal(span.parentSpanId, root.spanId, `${span.name} is a child of the run`);
  t.match(spans[1].attributes, { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o-mini', 'gen_ai.usage.input_tokens': 5, 'gen_ai.usage.output_tokens': 2 });
  t.notOk('gen_ai.request.model' in spans[0].attributes, 'no GenAI attributes on a component that calls no model');
  t.ok(BigInt(spans[0].endTimeUnixNano) <= BigInt(spans[2].endTimeUnixNano), 'timed as they ran');
});
