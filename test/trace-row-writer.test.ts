/**
 * The recorder writes each run's trace row straight from the run (src/services/records/trace-row-writer.ts), where
 * PostgreSQL and the OpenTelemetry export take the trace's object form (`traceOf`). Every run below, of real flows
 * through the service, is written both ways as it ends: the two rows must read back the same.
 */
import { Packr, Unpackr } from 'msgpackr';
import t from 'tap';
import { MsgpackWriter } from '../src/store/msgpack-writer.js';
import { traceRow } from '../src/store/trace-row.js';
import { createFlow, flowBody } from './support/flow-helpers.js';
import { chatModelFlow, HEADER_KEY, memoryChatbotFlow, modelClient, openaiModelTemplate, startModelStack, twoModelChainFlow } from './support/model-flows.js';

const { model, server, close } = await startModelStack();
t.teardown(close);

const packer = new Packr({ useRecords: false });
const unpacker = new Unpackr({ useRecords: false, mapsAsObjects: true });
interface Written {
  direct: unknown;
  fromObject: unknown;
  spanCount: number;
  objectSpans: number;
}
const written: Written[] = [];
const repo = server.services.store.runRecords;
const prepare = repo.prepare.bind(repo);
repo.prepare = (source) => {
  // A writer smaller than any row: growing it is part of what is checked.
  const out = new MsgpackWriter(16);
  const spanCount = source.writeRow(out);
  const record = source.record();
  written.push({ direct: unpacker.unpack(out.written()), fromObject: unpacker.unpack(packer.pack(traceRow(record))), spanCount, objectSpans: record.spans.length });
  return prepare(source);
};

const run = (flowId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  server.request(`/api/v1/run/${flowId}`, { method: 'POST', json: body, headers: { [`X-FLOWSVC-GLOBAL-VAR-${HEADER_KEY}`]: 'sk-x', ...headers } });

t.test('rows written from runs read back as the rows of their traces', async (t) => {
  const echo = await createFlow(server, flowBody('Echo'));
  await run(echo.id, { input_value: 'hi' });
  await run(echo.id, { input_value: 'a question long enough to be linked, not copied' });
  await run(echo.id, { input_value: `é ${'long text '.repeat(1_200)}`, session_id: 'ß-session' });

  const single = await createFlow(server, chatModelFlow('One model', 'LanguageModelComponent', openaiModelTemplate()));
  model.script({ text: 'Four.', usage: { prompt_tokens: 7, completion_tokens: 3 } });
  await modelClient(server).flow(single.id).run('what is 2+2?');
  model.script({ error: { status: 400, message: 'the prompt is not allowed' } });
  await run(single.id, { input_value: 'bad' });
  model.script({ text: 'keyed' });
  await run(single.id, { input_value: 'with a key', tweaks: { 'LanguageModelComponent-model1': { api_key: 'sk-in-the-request', temperature: 0.5 } } });

  const chain = await createFlow(server, twoModelChainFlow('Two models'));
  model.script({ text: 'first answer, long enough to be linked', usage: { prompt_tokens: 5, completion_tokens: 8 } }, { text: 'second', usage: { prompt_tokens: 9, completion_tokens: 1 } });
  await run(chain.id, { input_value: 'go' });

  const memory = await createFlow(server, memoryChatbotFlow());
  model.script({ text: 'one' }, { text: 'two' });
  await run(memory.id, { input_value: 'remember this', session_id: 'm' });
  await run(memory.id, { input_value: 'and this', session_id: 'm' });

  await server.request('/api/v1/monitor/traces');
  t.equal(written.length, 9, 'every run was written');
  for (const [n, row] of written.entries()) {
    t.strictSame(row.direct, row.fromObject, `run ${n + 1}: the same row`);
    t.equal(row.spanCount, row.objectSpans, `run ${n + 1}: the same span count`);
  }
  const text = JSON.stringify(written.map((row) => row.direct));
  t.notOk(text.includes('sk-in-the-request'), 'a password field is left out of both');
  t.ok(text.includes('"error"'), 'an error span is among them');
  t.ok(text.includes('…'), 'a cut text is among them');
  t.ok(written.some((row) => (row.direct as unknown[])[6] !== null), 'a trace with tokens is among them');
});
