/**
 * Several instances sharing runs (README, "Several machines"): with `FLOWSVC_NATS_URL` set beside
 * `FLOWSVC_DATABASE_URL`, this instance joins the cluster: its v2 jobs' logs go on JetStream, background jobs queue
 * in PostgreSQL for every instance (leases), stops and session changes travel on the bus, and the files directory
 * is checked to be the one the other instances use. Unset, nothing here is loaded.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { RunSharing } from '../runs/run-sharing.js';
import type { Store } from '../store/port.js';
import { clusterNames } from './cluster-names.js';
import type { EventBus } from './event-bus.port.js';
import { JetStreamRunLogs } from './jetstream-run-logs.js';
import { LeasedJobs } from './leased-jobs.js';
import { MirroredLog } from './mirrored-log.js';
import { NatsBus } from './nats-bus.js';
import { connectNats } from './nats-connection.js';
import { checkSharedFilesDir } from './shared-files-dir.js';

export interface Cluster {
  instanceId: string;
  bus: EventBus;
  logs: JetStreamRunLogs;
  leased: LeasedJobs;
  /** For the run lifecycle: shared logs, and final records fenced by the lease. */
  sharing: RunSharing;
  close(): Promise<void>;
}

/** How often an idle instance looks for queued jobs when no hint came. */
const POLL_MS = 1000;

export async function joinCluster(config: Config, store: Store, filesDir: string, logger: Logger): Promise<Cluster> {
  if (!config.NATS_URL || !store.leases) throw new Error('FLOWSVC_NATS_URL needs the shared store (FLOWSVC_DATABASE_URL)');
  await checkSharedFilesDir(filesDir, store.settings);
  // Names the process in lease rows, for whoever reads them (host and pid), unique across restarts.
  const instanceId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const nc = await connectNats(config.NATS_URL, logger);
  const names = clusterNames(config.CLUSTER_NAME);
  // A job's shared log is kept as long as its stored log would be.
  const logs = await JetStreamRunLogs.open(nc, names, { maxAgeMs: config.JOB_RETENTION_SECONDS * 1000, logger });
  const bus = new NatsBus(nc, names, logger);
  const leased = new LeasedJobs({
    leases: store.leases,
    bus,
    logger,
    instanceId,
    concurrency: config.JOB_CONCURRENCY,
    leaseMs: config.JOB_LEASE_SECONDS * 1000,
    pollMs: POLL_MS,
  });
  const sharing: RunSharing = {
    log: (runId, spec) => new MirroredLog(logs.writer(runId), logger, spec.retention, spec.entry),
    record: (runId, write) => leased.record(runId, write),
    drain: () => leased.close(),
  };
  logger.info({ instanceId, cluster: config.CLUSTER_NAME }, 'joined the cluster: runs are shared with the other instances');
  return {
    instanceId,
    bus,
    logs,
    leased,
    sharing,
    async close() {
      leased.close();
      await logs.close();
      await bus.close();
      await nc.drain().catch(() => undefined);
    },
  };
}
