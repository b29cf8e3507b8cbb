/**
 * `flowsvc cluster status|remove` against the machine's NATS: what a cluster leaves there once its instances are
 * stopped (its stream of run logs) is shown, then removed, and a cluster with none says so.
 */
import t from 'tap';
import { clusterNames } from '../src/cluster/cluster-names.js';
import { runCli } from '../test/support/process.js';
import { freshRunLogs, natsConnection, TEST_NATS_URL, uniqueClusterName } from './support/nats.js';

/** What the instances are given (the command reads the same settings; the database is not opened). */
const instanceEnv = { FLOWSVC_NATS_URL: TEST_NATS_URL, FLOWSVC_DATABASE_URL: 'postgres://db/unused', FLOWSVC_FILES_DIR: '/unused' };

t.test('status shows the stream a cluster left, remove deletes it', async (t) => {
  const name = uniqueClusterName();
  const logs = await freshRunLogs(t, await natsConnection(t), clusterNames(name));
  const writer = logs.writer('job-1');
  writer.append({ seq: 1, event: 'vertices_sorted', data: {} });
  await writer.end();
  const env = { ...instanceEnv, FLOWSVC_CLUSTER_NAME: name };

  const status = await runCli(['cluster', 'status'], env);
  t.equal(status.code, 0, status.stderr);
  t.match(status.stdout, new RegExp(`^cluster "${name}": stream FLOWSVC_${name}_RUNS: \\d+ run log messages, \\d+ bytes, \\d+ consumers\\n$`));

  const removed = await runCli(['cluster', 'remove'], env);
  t.equal(removed.code, 0, removed.stderr);
  t.equal(removed.stdout, `removed the stream FLOWSVC_${name}_RUNS and every run log in it\n`);

  const [after, again] = await Promise.all([runCli(['cluster', 'status'], env), runCli(['cluster', 'remove'], env)]);
  t.match(after.stdout, /not on this NATS server/);
  t.match(again.stdout, /nothing to remove/);
});

t.test('the cluster name comes from the database name, as serve derives it', async (t) => {
  const database = uniqueClusterName();
  const status = await runCli(['cluster', 'status'], { ...instanceEnv, FLOWSVC_DATABASE_URL: `postgres://db/${database}`, FLOWSVC_CLUSTER_NAME: undefined });
  t.equal(status.code, 0, status.stderr);
  t.equal(status.stdout, `cluster "${database}": stream FLOWSVC_${database}_RUNS: not on this NATS server\n`);
});

t.test('mistakes are one line', async (t) => {
  const [noNats, badAction, unreachable] = await Promise.all([
    runCli(['cluster', 'status'], { FLOWSVC_NATS_URL: undefined }),
    runCli(['cluster', 'wipe'], {}),
    runCli(['cluster', 'status'], { ...instanceEnv, FLOWSVC_NATS_URL: 'nats://127.0.0.1:1', FLOWSVC_CLUSTER_NAME: 'x' }),
  ]);
  t.equal(noNats.code, 2);
  t.match(noNats.stderr, /^flowsvc cluster: FLOWSVC_NATS_URL is not set[^\n]*\n$/);
  t.equal(badAction.code, 2);
  t.match(badAction.stderr, /usage: flowsvc cluster status\|remove/);
  t.equal(unreachable.code, 1);
  t.match(unreachable.stderr, /^flowsvc: FLOWSVC_NATS_URL=nats:\/\/127\.0\.0\.1:1 cannot be reached[^\n]*\n$/);
});
