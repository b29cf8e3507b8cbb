/**
 * v2 jobs shared by three instances: a background job submitted to one is watched from another and resumed from a
 * third with no gap and no duplicate, and a stop sent to any instance reaches the one running it (the model server
 * sees its request closed). Token streaming of a v1 run goes through the instance that took the request, which runs it.
 */
import t, { type Test } from 'tap';
import { startModelServer } from '../test/support/model-server.js';
import { chatModelFlow, openaiModelTemplate } from '../test/support/model-flows.js';
import { readSse, type SseEvent } from '../test/support/workflows.js';
import { startCluster } from './support/cluster.js';
import { expectJson } from './support/instances.js';
import { admin } from './support/postgres.js';

const INPUT = 'ChatInput-in001.input_value';

t.test('three instances sharing jobs', async (t) => {
  const model = await startModelServer();
  t.teardown(() => model.close());
  const { instances, databaseUrl } = await startCluster(t, 3, { OPENAI_BASE_URL: model.baseURL });

  t.test('a background job submitted to A, watched from B, resumed from C and stopped from C', async (t) => {
    const [a, b, c] = instances;
    const flow = await expectJson(await a.call('/api/v1/flows/', { method: 'POST', json: chatModelFlow('Slow model', 'LanguageModelComponent', openaiModelTemplate()) }), 201);
    model.script({ tokens: Array.from({ length: 3000 }, (_, i) => ` t${i}`), tokenDelayMs: 10 });
    const asked = model.nextChat();
    const aborted = model.nextAbort();
    const job = await expectJson(await a.call('/api/v2/workflows', { method: 'POST', json: { flow_id: flow.id, background: true, inputs: { [INPUT]: 'hi' }, globals: { OPENAIKEY: 'sk-x' } } }), 200);
    t.equal(job.status, 'queued');
    await asked;
    const [lease] = await admin<{ owner: string }>('SELECT owner FROM job_leases WHERE id = $1', [job.job_id], databaseUrl);
    t.match(lease.owner, `:${a.child.pid}:`, 'A, which had a free slot, runs it: B and C follow it on the bus');

    // B follows the job's log while some instance runs it; once it has seen tokens, C resumes from the 20th event.
    let seenTokens!: () => void;
    const tokensSeen = new Promise<void>((resolve) => (seenTokens = resolve));
    const fromB = readSse(await b.call(`/api/v2/workflows?job_id=${job.job_id}&stream=true`), (event) => event.id >= 30 && seenTokens());
    await tokensSeen;
    const fromC = readSse(await c.call(`/api/v2/workflows?job_id=${job.job_id}&stream=true&sequence_id=20`));
    const stopped = await expectJson(await c.call('/api/v2/workflows/stop', { method: 'POST', json: { job_id: job.job_id } }), 200);
    t.equal(stopped.message, `Job ${job.job_id} cancelled successfully.`);
    await aborted;
    t.pass('the model server saw its request closed');

    const [watched, resumed] = await Promise.all([fromB, fromC]);
    assertContiguous(t, watched, 1, 'B');
    assertContiguous(t, resumed, 21, 'C');
    t.same(resumed, watched.slice(20), 'C saw exactly what B saw after the 20th event');
    t.equal(watched.at(-1)!.data.status, 'cancelled', 'the last event is the cancelled status');
    for (const instance of instances) t.equal((await expectJson(await instance.call(`/api/v2/workflows?job_id=${job.job_id}`), 200)).status, 'cancelled');
    t.equal(model.chats.length, 1, 'the job ran once');
  });

  t.test('v1 token streaming through B, the instance that took the request (and runs it)', async (t) => {
    const [a, b] = instances;
    const flow = await expectJson(await a.call('/api/v1/flows/', { method: 'POST', json: chatModelFlow('Model', 'LanguageModelComponent', openaiModelTemplate()) }), 201);
    await expectJson(await a.call('/api/v1/variables/', { method: 'POST', json: { name: 'OPENAIKEY', value: 'sk-x', type: 'Credential' } }), 201);
    model.script({ tokens: ['one', ' two', ' three'] });
    const res = await b.call(`/api/v1/run/${flow.id}?stream=true`, { method: 'POST', json: { input_value: 'hi' } });
    const text = await res.text();
    const tokens = [...text.matchAll(/"event": ?"token"[^\n]*"chunk": ?"([^"]*)"/g)].map((m) => m[1]);
    t.same(tokens, ['one', ' two', ' three'], 'every token, in order');
    t.match(text, /"event": ?"end"/);
  });
});

function assertContiguous(t: Test, events: SseEvent[], from: number, who: string): void {
  const ids = events.map((event) => event.id);
  t.same(ids, Array.from({ length: ids.length }, (_, i) => from + i), `${who}: no gap, no duplicate`);
}
