/**
 * Background v2 jobs as the cluster tests drive them: submitted to an instance, read back through any instance until
 * they end (the end is another process's write, so it is polled), and the instance that owns one found from its
 * lease row (an owner is host:pid:random).
 */
import { admin } from './postgres.js';
import { expectJson, type Instance } from './instances.js';

export const TERMINAL = new Set(['completed', 'failed', 'cancelled', 'timed_out']);
/** The chat input of test/support/model-flows.ts's chatModelFlow. */
const INPUT = 'ChatInput-in001.input_value';

/** Submits a background run of a chatModelFlow with `input`; its job id once the instance has acknowledged it. */
export const submitBackground = async (instance: Instance, flowId: string, input: string): Promise<string> =>
  (await expectJson(await instance.call('/api/v2/workflows', { method: 'POST', json: { flow_id: flowId, background: true, inputs: { [INPUT]: input }, globals: { OPENAIKEY: 'sk-x' } } }), 200)).job_id as string;

/** Each job's record as `instance` reads it once it has ended, by id. */
export async function untilTerminal(instance: Instance, jobIds: string[]): Promise<Map<string, any>> {
  const finals = new Map<string, any>();
  for (;;) {
    for (const id of jobIds.filter((id) => !finals.has(id))) {
      const job = await expectJson(await instance.call(`/api/v2/workflows?job_id=${id}`), 200);
      if (TERMINAL.has(job.status)) finals.set(id, job);
    }
    if (finals.size === jobIds.length) return finals;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The lease rows of the cluster's database, as the instances wrote them. */
export const leaseRows = (databaseUrl: string) => admin<{ id: string; owner: string; state: string }>('SELECT id, owner, state FROM job_leases', [], databaseUrl);

/** The instance whose lease `owner` is. */
export const instanceOf = (owner: string, instances: Instance[]): Instance => instances.find((instance) => owner.includes(`:${instance.child.pid}:`))!;

/** The instance that holds (or last held) the lease of `jobId`. */
export async function ownerOf(databaseUrl: string, jobId: string, instances: Instance[]): Promise<Instance> {
  const row = (await leaseRows(databaseUrl)).find((lease) => lease.id === jobId)!;
  return instanceOf(row.owner, instances);
}
