/**
 * Without OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT the OpenTelemetry SDK, its exporter and our export module are never
 * loaded, even as runs execute (a process of its own: nothing loaded them before the watch began).
 */
import t from 'tap';
import { createFlow } from './support/flow-helpers.js';
import { chatModelFlow, modelClient, openaiModelTemplate, startModelStack } from './support/model-flows.js';
import { watchModules } from './support/module-watch.js';

t.test('no endpoint: nothing of OpenTelemetry export is loaded', async (t) => {
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const watch = watchModules(['@opentelemetry/sdk-trace', '@opentelemetry/exporter-trace-otlp-http', 'observability/otel-export']);
  const stack = await startModelStack();
  t.teardown(() => stack.close());
  const created = await createFlow(stack.server, chatModelFlow('Not exported', 'LanguageModelComponent', openaiModelTemplate()));
  const reply = await modelClient(stack.server).flow(created.id).run('hello');
  t.equal(reply.chatOutputText(), 'You said: hello', 'the run went through');
  // A control load: the hook reports it, and would have reported any load before it first (messages keep order).
  await import('@opentelemetry/sdk-trace-base');
  await watch.reported('@opentelemetry/sdk-trace');
  t.match(watch.loaded[0], /@opentelemetry\/sdk-trace-base/, 'the first OpenTelemetry module loaded is the control');
});
