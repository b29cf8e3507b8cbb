/**
 * The NATS the cluster tests use: the machine's server (`FLOWSVC_TEST_NATS_URL`) with a cluster name of the test's
 * own, so tests never see each other's streams and subjects, and the stream deleted when the test ends; or, for a
 * test that stops and restarts NATS, a `nats-server` of its own on a free port with a temporary store.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Test } from 'tap';
import { clusterNames, type ClusterNames } from '../../src/cluster/cluster-names.js';
import { JetStreamRunLogs, type RunLogWriter } from '../../src/cluster/jetstream-run-logs.js';
import { connectNats } from '../../src/cluster/nats-connection.js';
import { createLogger } from '../../src/logger.js';
import type { LogEntry, LogWatcher } from '../../src/runs/run-log.js';
import { within } from '../../test/support/within.js';

export const TEST_NATS_URL = process.env.FLOWSVC_TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

export const quietLogger = createLogger('silent');

/** A cluster name no other test uses. */
export const uniqueClusterName = (): string => `t${randomBytes(6).toString('hex')}`;

/** A connection for this test, closed when it ends. */
export async function natsConnection(t: Test, url = TEST_NATS_URL): Promise<NatsConnection> {
  const nc = await connectNats(url, quietLogger);
  t.teardown(() => nc.close());
  return nc;
}

/** The run logs of a fresh cluster (on a connection of the test's own unless given); its stream is deleted when the test ends. */
export async function freshRunLogs(t: Test, connection?: NatsConnection, names: ClusterNames = clusterNames(uniqueClusterName())): Promise<JetStreamRunLogs> {
  const nc = connection ?? (await natsConnection(t));
  const logs = await JetStreamRunLogs.open(nc, names, { maxAgeMs: 60 * 60_000, logger: quietLogger });
  t.teardown(async () => {
    await logs.close();
    if (nc.isClosed()) return;
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(names.stream).catch(() => false);
  });
  return logs;
}

/** What a watcher was given, and promises for the moments a test waits for. */
export class RecordingWatcher implements LogWatcher {
  readonly entries: LogEntry[] = [];
  ends = 0;
  private waiters: { count: number; resolve: () => void }[] = [];
  private endWaiters: (() => void)[] = [];

  onEvent(entry: LogEntry): void {
    this.entries.push(entry);
    this.waiters = this.waiters.filter((waiter) => (this.entries.length >= waiter.count ? (waiter.resolve(), false) : true));
  }

  onEnd(): void {
    this.ends++;
    for (const resolve of this.endWaiters) resolve();
    this.endWaiters = [];
  }

  /** Resolves once `count` entries arrived (fails the test after `ms`). */
  received(count: number, ms = 20_000): Promise<void> {
    if (this.entries.length >= count) return Promise.resolve();
    return within(new Promise<void>((resolve) => this.waiters.push({ count, resolve })), `${count} entries (got ${this.entries.length})`, ms);
  }

  ended(ms = 20_000): Promise<void> {
    if (this.ends > 0) return Promise.resolve();
    return within(new Promise<void>((resolve) => this.endWaiters.push(resolve)), 'the end of the log', ms);
  }

  get seqs(): number[] {
    return this.entries.map((entry) => entry.seq);
  }
}

/**
 * A run under way: its writer has appended entries 1..`count` (made by `makeEntry`) and a watcher from the start has
 * received them all. The watcher is stopped when the test ends.
 */
export async function runUnderway(t: Test, logs: JetStreamRunLogs, runId: string, count: number, makeEntry: (seq: number) => LogEntry): Promise<{ writer: RunLogWriter; watcher: RecordingWatcher }> {
  const writer = logs.writer(runId);
  for (let seq = 1; seq <= count; seq++) writer.append(makeEntry(seq));
  const watcher = new RecordingWatcher();
  t.teardown(logs.watch(runId, 0, watcher));
  await watcher.received(count);
  return { writer, watcher };
}

/** 1..n: the sequence numbers a complete log of n entries has. */
export const oneTo = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A nats-server of the test's own: stopped (SIGTERM) and started again on the same port and store. */
export interface OwnNatsServer {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function ownNatsServer(t: Test): Promise<OwnNatsServer> {
  const port = await freePort();
  const storeDir = mkdtempSync(join(tmpdir(), 'flowsvc-nats-'));
  let child: ChildProcess | undefined;
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const gone = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await within(gone, 'nats-server stopping');
  };
  const start = async () => {
    const started = spawn('nats-server', ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir], { stdio: ['ignore', 'ignore', 'pipe'] });
    child = started;
    let output = '';
    await within(new Promise<void>((resolve, reject) => {
      started.stderr!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Server is ready')) resolve();
      });
      started.once('exit', (code) => reject(new Error(`nats-server exited (${code}): ${output}`)));
    }), 'nats-server ready');
  };
  t.teardown(async () => {
    await stop();
    rmSync(storeDir, { recursive: true, force: true });
  });
  await start();
  return { url: `nats://127.0.0.1:${port}`, stop, start };
}
