/**
 * One chat session used through three instances. 50 concurrent runs spread over them leave a complete history in
 * order, and a Memory component on one instance sees the turns stored through another, though its session actor
 * had cached the history before them (it compares its cache with the store's change count before each read).
 */
import t from 'tap';
import { flowBody } from '../test/support/flow-helpers.js';
import { startModelServer } from '../test/support/model-server.js';
import { memoryChatbotFlow } from '../test/support/model-flows.js';
import { startCluster } from './support/cluster.js';
import { expectJson, type Instance } from './support/instances.js';

const run = (instance: Instance, flowId: string, input: string, session: string) =>
  instance.call(`/api/v1/run/${flowId}`, { method: 'POST', json: { input_value: input, session_id: session } }).then((res) => expectJson(res, 200));

t.test('one chat session through three instances', async (t) => {
  const model = await startModelServer();
  t.teardown(() => model.close());
  const cluster = await startCluster(t, 3, { OPENAI_BASE_URL: model.baseURL });

  t.test('50 concurrent runs in one session over three instances: the history is complete and in order', async (t) => {
    const flow = await expectJson(await cluster.instances[0].call('/api/v1/flows/', { method: 'POST', json: flowBody('Echo') }), 201);
    const inputs = Array.from({ length: 50 }, (_, i) => `turn ${i}`);
    await Promise.all(inputs.map((input) => run(cluster.any(), flow.id, input, 'shared-session')));

    for (const instance of cluster.instances) {
      const history = await expectJson(await instance.call(`/api/v1/monitor/messages?flow_id=${flow.id}&session_id=shared-session`), 200);
      t.equal(history.length, 100, 'every run stored its question and its answer');
      const texts = history.map((message: any) => message.text);
      t.same([...texts].sort(), [...inputs, ...inputs].sort(), 'each turn twice (asked, echoed), nothing else');
      const stamps = history.map((message: any) => Date.parse(message.timestamp));
      t.same(stamps, [...stamps].sort((x, y) => x - y), 'in time order');
      for (const input of inputs) {
        const [asked, echoed] = history.flatMap((message: any, i: number) => (message.text === input ? [i] : []));
        t.ok(history[asked].sender === 'User' && history[echoed].sender === 'Machine', `${input}: the question comes before its echo`);
      }
    }
  });

  t.test('a Memory component on A sees the turn stored through B after A had cached the session', async (t) => {
    const [a, b] = cluster.instances;
    const flow = await expectJson(await a.call('/api/v1/flows/', { method: 'POST', json: memoryChatbotFlow() }), 201);
    await expectJson(await a.call('/api/v1/variables/', { method: 'POST', json: { name: 'OPENAIKEY', value: 'sk-x', type: 'Credential' } }), 201);
    model.script({ tokens: ['first answer'] }, { tokens: ['second answer'] }, { tokens: ['third answer'] });
    await run(a, flow.id, 'first question', 'remembered');
    await run(b, flow.id, 'second question', 'remembered');
    const third = model.nextChat();
    await run(a, flow.id, 'third question', 'remembered');
    const asked = JSON.stringify((await third).body);
    t.match(asked, /second question/, 'A read the turn stored through B');
    t.match(asked, /second answer/);
  });
});
