/**
 * Instances that die or stall while they own jobs. `kill -9` of an owner: every acknowledged job ends in exactly one
 * terminal state, the queued ones run on the other instances, and no run starts twice (the stand-in model counts
 * its calls per job). `SIGSTOP` of an owner past its lease, then `SIGCONT`: another instance ends the job
 * interrupted, and the owner's late final write is refused.
 */
import t from 'tap';
import { startModelServer } from '../test/support/model-server.js';
import { chatModelFlow, openaiModelTemplate } from '../test/support/model-flows.js';
import { readSse } from '../test/support/workflows.js';
import { startCluster } from './support/cluster.js';
import { instanceOf, leaseRows, ownerOf, submitBackground, TERMINAL, untilTerminal } from './support/background-jobs.js';
import { expectJson } from './support/instances.js';

const LEASE = { FLOWSVC_JOB_LEASE_SECONDS: '1', FLOWSVC_JOB_CONCURRENCY: '2' };

t.test('kill -9 of the instance that owns running jobs: each job ends once, queued ones run elsewhere', async (t) => {
  const model = await startModelServer();
  t.teardown(() => model.close());
  const cluster = await startCluster(t, 3, { OPENAI_BASE_URL: model.baseURL, ...LEASE });
  const [a] = cluster.instances;
  const flow = await expectJson(await a.call('/api/v1/flows/', { method: 'POST', json: chatModelFlow('Slow model', 'LanguageModelComponent', openaiModelTemplate()) }), 201);
  // Each call streams for about a second: long enough to be killed mid-run.
  model.script(...Array.from({ length: 40 }, () => ({ tokens: Array.from({ length: 50 }, (_, i) => ` t${i}`), tokenDelayMs: 20 })));
  const inputs = Array.from({ length: 12 }, (_, i) => `job-${i}`);
  const jobIds = await Promise.all(inputs.map((input) => submitBackground(cluster.any(), flow.id, input)));
  await model.nextChat();

  // The owner of the first job the model heard of dies at a random point of its runs.
  const owners = await leaseRows(cluster.databaseUrl);
  const victim = instanceOf(owners.find((row) => row.state === 'running')!.owner, cluster.instances);
  await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 800)));
  await victim.kill();
  const survivor = cluster.instances.find((instance) => instance !== victim)!;

  const finals = await untilTerminal(survivor, jobIds);
  t.equal(finals.size, jobIds.length, 'every acknowledged job ended');
  const statuses = [...finals.values()].map((job) => job.status);
  t.ok(statuses.every((status) => status === 'completed' || status === 'failed'), `completed or failed: ${statuses.join(', ')}`);
  for (const job of finals.values()) if (job.status === 'failed') t.match(JSON.stringify(job), /JOB_INTERRUPTED/, 'a failed job was interrupted');
  const calls = model.chats.map((chat) => JSON.stringify(chat.body)).map((body) => inputs.find((input) => body.includes(`"${input}"`)));
  t.equal(new Set(calls).size, calls.length, 'no job reached the model twice');
  t.ok(statuses.filter((status) => status === 'failed').length <= 2, 'only the jobs the dead instance was running (2 at most) failed: the rest ran');
  for (const id of jobIds) {
    const log = await readSse(await survivor.call(`/api/v2/workflows?job_id=${id}&stream=true`));
    const ends = log.filter((event) => event.event === 'job_status' && TERMINAL.has(event.data.status));
    t.equal(ends.length, 1, `job ${id}: one terminal status in its log`);
    t.same(log.map((event) => event.id), log.map((_, i) => i + 1), `job ${id}: its log has no gap and no duplicate`);
  }
  const rows = await leaseRows(cluster.databaseUrl);
  t.ok(rows.every((row) => row.state === 'ended'), 'no lease is left running or queued');
});

t.test('SIGSTOP of an owner past its lease, then SIGCONT: its late writes are refused', async (t) => {
  const model = await startModelServer();
  t.teardown(() => model.close());
  const cluster = await startCluster(t, 2, { OPENAI_BASE_URL: model.baseURL, ...LEASE });
  const [a] = cluster.instances;
  const flow = await expectJson(await a.call('/api/v1/flows/', { method: 'POST', json: chatModelFlow('Slow model', 'LanguageModelComponent', openaiModelTemplate()) }), 201);
  model.script({ tokens: Array.from({ length: 200 }, (_, i) => ` t${i}`), tokenDelayMs: 20 });
  const jobId = await submitBackground(a, flow.id, 'paused');
  await model.nextChat();
  const owner = await ownerOf(cluster.databaseUrl, jobId, cluster.instances);
  const other = cluster.instances.find((instance) => instance !== owner)!;

  owner.child.kill('SIGSTOP');
  const [final] = (await untilTerminal(other, [jobId])).values();
  t.equal(final.status, 'failed', 'the other instance ended the job once the lease expired');
  t.match(JSON.stringify(final), /JOB_INTERRUPTED/);
  owner.child.kill('SIGCONT');
  // The owner hears at its next heartbeat that the job is no longer its, ends its run and tries to record it.
  while (!owner.output().includes('another instance took it over: its result is not recorded')) await new Promise((resolve) => setTimeout(resolve, 50));
  const after = await expectJson(await owner.call(`/api/v2/workflows?job_id=${jobId}`), 200);
  t.equal(after.status, 'failed', 'the record is still the one the other instance wrote');
  t.same(after, final, 'unchanged');
});
