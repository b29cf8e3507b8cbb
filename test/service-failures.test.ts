/**
 * How every hosted-service component fails, against its stand-in through the HTTP edge: a wrong key is the
 * service's 401, named; a 429 asking for a short wait is retried and one asking for a long wait fails at once; a
 * service that never answers fails after FLOWSVC_SERVICE_TIMEOUT_SECONDS; a 40 MB answer is dropped unread past
 * the limit. As an Agent tool, the same failure is the tool's result and the run answers.
 */
import t from 'tap';
import { agentToolFlow, repeatToolResult, toolMessageOf } from './support/agent-tool-flow.js';
import { createFlow } from './support/flow-helpers.js';
import { startModelServer } from './support/model-server.js';
import { modelClient } from './support/model-flows.js';
import { startTestServer } from './support/server.js';
import { SERVICE_CASES } from './support/service-cases.js';

const model = await startModelServer();
const standIns = await Promise.all(SERVICE_CASES.map(async (service) => ({ service, standIn: await service.start() })));
for (const { service, standIn } of standIns) process.env[service.setting] = standIn.url;
process.env.FLOWSVC_SERVICE_TIMEOUT_SECONDS = '1';
const server = await startTestServer({ FALLBACK_TO_ENV_VAR: 'false' });
t.teardown(async () => {
  await server.close();
  await model.close();
  for (const { standIn } of standIns) await standIn.close();
});

const run = async (flowId: string, input: string) => {
  const res = await server.request(`/api/v1/run/${flowId}`, { method: 'POST', json: { input_value: input } });
  return { status: res.status, detail: res.status === 200 ? '' : String((await res.json()).detail) };
};

for (const { service, standIn } of standIns) {
  t.test(service.name, async (t) => {
    const good = await createFlow(server, service.flow(service.key));
    const wrongKey = await createFlow(server, service.flow('not-the-key'));
    t.beforeEach(() => {
      standIn.mode = { kind: 'answer' };
    });

    t.test('works with the right key', async (t) => {
      t.equal((await run(good.id, service.input)).status, 200);
    });

    t.test('a wrong key is the service refusing it, named', async (t) => {
      const { status, detail } = await run(wrongKey.id, service.input);
      t.equal(status, 500);
      t.match(detail, `${service.name} refused the API key (401)`);
      t.notMatch(detail, /fetch failed|at .*\.ts:\d+/, 'no bare fetch error, no stack');
    });

    t.test('a 429 asking for a second is waited for and retried', async (t) => {
      standIn.mode = { kind: 'rate-limited', retryAfterSeconds: 1, times: 1 };
      const seen = standIn.requests.length;
      const started = Date.now();
      t.equal((await run(good.id, service.input)).status, 200);
      t.ok(Date.now() - started >= 900, 'it waited as asked');
      t.equal(standIn.requests.slice(seen).filter((r) => r.path === standIn.requests[seen]!.path).length, 2, 'the refused request was sent again');
    });

    t.test('a 429 asking for two minutes fails at once, saying so', async (t) => {
      standIn.mode = { kind: 'rate-limited', retryAfterSeconds: 120 };
      const started = Date.now();
      const { status, detail } = await run(good.id, service.input);
      t.equal(status, 500);
      t.match(detail, `${service.name} is limiting requests (429); it asks to retry after 120 s`);
      t.ok(Date.now() - started < 5000, 'without waiting');
    });

    t.test('a service that never answers fails after the service timeout', async (t) => {
      standIn.mode = { kind: 'hang' };
      const slow = service.timeoutTemplate ? await createFlow(server, service.flow(service.key, service.timeoutTemplate)) : good;
      const { status, detail } = await run(slow.id, service.input);
      t.equal(status, 500);
      t.match(detail, `${service.name} did not answer within 1 s`);
    });

    t.test('a 40 MB answer is dropped past the limit', async (t) => {
      standIn.mode = { kind: 'huge', megabytes: 40 };
      // Read at call time: this one case may take longer than a second to read 16 MB on a busy machine.
      process.env.FLOWSVC_SERVICE_TIMEOUT_SECONDS = '30';
      t.teardown(() => void (process.env.FLOWSVC_SERVICE_TIMEOUT_SECONDS = '1'));
      const before = process.memoryUsage().rss;
      const { status, detail } = await run(good.id, service.input);
      t.equal(status, 500);
      t.match(detail, `${service.name}'s answer is larger than 16 MB; it was not read`);
      t.ok(process.memoryUsage().rss - before < 40 * 1024 * 1024, 'the answer was not held whole');
    });

    t.test('as an Agent tool, the failure is the tool result and the run answers', async (t) => {
      const created = await createFlow(server, agentToolFlow(`${service.name} tool`, { id: `${service.type}-tool1`, type: service.type, template: service.toolTemplate('not-the-key') }, model.baseURL, service.toolOutput));
      if (service.toolNeedsTheKeyToExist) {
        const { status, detail } = await run(created.id, 'Use the tool');
        t.equal(status, 500);
        return void t.match(detail, `${service.name} refused the API key (401)`);
      }
      model.script({ toolCalls: [{ name: service.toolName, arguments: service.toolArguments }] }, repeatToolResult);
      const before = model.chats.length;
      const reply = await modelClient(server).flow(created.id).run('Use the tool');
      t.match(toolMessageOf(model.chats[before + 1]!), `${service.name} refused the API key (401)`);
      t.match(reply.chatOutputText(), /^Tool said: /);
    });
  });
}
