/**
 * Clusters of service processes for the cluster bench: `count` instances on a throwaway PostgreSQL database and the
 * machine's NATS, under a cluster name of their own (its JetStream stream deleted when the cluster stops), sharing
 * one files directory, as machines behind a load balancer would. Also: whether NATS answers, and which instance
 * owns a job (its lease row names the owner's pid).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import { throwawayDatabase } from './postgres.js';
import { startService, type ServerProcess } from './processes.js';

export const BENCH_NATS_URL = process.env.FLOWSVC_BENCH_NATS_URL || process.env.FLOWSVC_TEST_NATS_URL || 'nats://127.0.0.1:4222';

export interface ServiceCluster {
  instances: ServerProcess[];
  /** The instance that claimed `jobId` (waits until one has; its lease row keeps the owner once ended), and the others. */
  ownerOf(jobId: string): Promise<{ owner: ServerProcess; others: ServerProcess[] }>;
  /** Starts one more instance on the same database, NATS stream and files. */
  another(): Promise<ServerProcess>;
  stop(): Promise<void>;
}

/** Whether a NATS server answers at the bench's URL. */
export async function natsReachable(): Promise<boolean> {
  try {
    const nc = await connect({ servers: BENCH_NATS_URL, timeout: 3000, maxReconnectAttempts: 0 });
    await nc.close();
    return true;
  } catch {
    return false;
  }
}

export async function startServiceCluster(count: number, env: Record<string, string> = {}): Promise<ServiceCluster> {
  const database = await throwawayDatabase();
  const name = `bench${randomBytes(6).toString('hex')}`;
  const filesDir = mkdtempSync(join(tmpdir(), 'flowsvc-bench-files-'));
  const clusterEnv = { FLOWSVC_DATABASE_URL: database.url, FLOWSVC_NATS_URL: BENCH_NATS_URL, FLOWSVC_CLUSTER_NAME: name, FLOWSVC_FILES_DIR: filesDir, ...env };
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  const instances: ServerProcess[] = [];
  const another = async () => {
    const instance = await startService(clusterEnv);
    instances.push(instance);
    return instance;
  };
  // One at a time: their migrations would otherwise race on the fresh database for nothing a bench measures.
  for (let i = 0; i < count; i++) await another();
  return {
    instances,
    another,
    async ownerOf(jobId) {
      for (;;) {
        const { rows } = await pool.query<{ owner: string | null }>("SELECT owner FROM job_leases WHERE id = $1 AND owner IS NOT NULL", [jobId]);
        const pid = rows[0]?.owner?.split(':')[1];
        const owner = instances.find((instance) => String(instance.child.pid) === pid);
        if (owner) return { owner, others: instances.filter((instance) => instance !== owner) };
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    async stop() {
      await Promise.all(instances.filter((instance) => instance.child.exitCode === null && instance.child.signalCode === null).map((instance) => instance.stop()));
      await pool.end();
      await database.drop();
      rmSync(filesDir, { recursive: true, force: true });
      const nc = await connect({ servers: BENCH_NATS_URL });
      try {
        await (await jetstreamManager(nc)).streams.delete(`FLOWSVC_${name}_RUNS`).catch(() => false);
      } finally {
        await nc.close();
      }
    },
  };
}
