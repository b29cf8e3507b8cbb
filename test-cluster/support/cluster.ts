/**
 * A cluster for a test: `count` service processes on one fresh PostgreSQL database and the machine's NATS (a
 * cluster name of the test's own, its stream deleted at the end), sharing one files directory, as machines
 * behind a load balancer would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import type { Test } from 'tap';
import { clusterNames } from '../../src/cluster/cluster-names.js';
import { startInstance, startInstances, type Instance } from './instances.js';
import { natsConnection, TEST_NATS_URL, uniqueClusterName } from './nats.js';
import { freshDatabase } from './postgres.js';

export interface TestCluster {
  instances: Instance[];
  databaseUrl: string;
  /** The files dir every instance shares. */
  filesDir: string;
  /** Starts one more instance of the same cluster (a restart after a kill), with `env` added to the cluster's. */
  another(env?: Record<string, string>): Promise<Instance>;
  /** A random instance, as a load balancer would pick. */
  any(): Instance;
}

export async function startCluster(t: Test, count: number, env: Record<string, string> = {}): Promise<TestCluster> {
  const databaseUrl = await freshDatabase(t);
  const clusterName = uniqueClusterName();
  const filesDir = mkdtempSync(join(tmpdir(), 'flowsvc-cluster-files-'));
  t.teardown(() => rmSync(filesDir, { recursive: true, force: true }));
  const nc = await natsConnection(t);
  t.teardown(async () => {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(clusterNames(clusterName).stream).catch(() => false);
  });
  const clusterEnv = { FLOWSVC_NATS_URL: TEST_NATS_URL, FLOWSVC_CLUSTER_NAME: clusterName, FLOWSVC_FILES_DIR: filesDir, ...env };
  const instances = await startInstances(t, databaseUrl, count, clusterEnv);
  return {
    instances,
    databaseUrl,
    filesDir,
    another: (extra = {}) => startInstance(t, databaseUrl, { ...clusterEnv, ...extra }),
    any: () => instances[Math.floor(Math.random() * instances.length)],
  };
}
