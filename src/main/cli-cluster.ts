/**
 * `flowsvc cluster status|remove`: what a cluster keeps on NATS once its instances are stopped, and its removal.
 * A cluster keeps one JetStream stream, FLOWSVC_<cluster name>_RUNS, of run logs that expire after
 * FLOWSVC_JOB_RETENTION_SECONDS; the stream itself stays until removed. Its instances' consumers are ephemeral (the
 * server drops them with their connections) and the bus's subjects hold nothing. Reads FLOWSVC_NATS_URL and the
 * cluster name as serve does (FLOWSVC_CLUSTER_NAME, else derived from FLOWSVC_DATABASE_URL).
 */
import { connect } from '@nats-io/transport-node';
import { jetstreamManager, JetStreamApiError } from '@nats-io/jetstream';
import { clusterNames } from '../cluster/cluster-names.js';
import { loadConfig } from '../config.js';
import { parseCommandArgs, UsageError } from './cli-args.js';
import { CLUSTER_USAGE } from './cli-usage.js';
import { EnvironmentError } from './environment-error.js';

const STREAM_NOT_FOUND = 10059;

export async function clusterCommand(args: string[]): Promise<void> {
  const { positionals, values } = parseCommandArgs(args, { help: { type: 'boolean', short: 'h' } });
  if (values.help) return void process.stdout.write(CLUSTER_USAGE);
  const [action, ...extra] = positionals;
  if ((action !== 'status' && action !== 'remove') || extra.length > 0) throw new UsageError('usage: flowsvc cluster status|remove');
  const config = loadConfig();
  if (!config.NATS_URL) throw new UsageError('FLOWSVC_NATS_URL is not set: a cluster lives on NATS');
  const stream = clusterNames(config.CLUSTER_NAME).stream;
  const nc = await connect({ servers: config.NATS_URL, name: 'flowsvc-cli' }).catch((error: Error) => {
    throw new EnvironmentError(`FLOWSVC_NATS_URL=${config.NATS_URL} cannot be reached: ${error.message}`);
  });
  try {
    const jsm = await jetstreamManager(nc);
    if (action === 'status') {
      const info = await jsm.streams.info(stream).catch(notFound);
      const line = info ? `${info.state.messages} run log messages, ${info.state.bytes} bytes, ${info.state.consumer_count} consumers` : 'not on this NATS server';
      process.stdout.write(`cluster "${config.CLUSTER_NAME}": stream ${stream}: ${line}\n`);
    } else {
      const removed = await jsm.streams.delete(stream).catch(notFound);
      process.stdout.write(removed ? `removed the stream ${stream} and every run log in it\n` : `no stream ${stream} on this NATS server: nothing to remove\n`);
    }
  } finally {
    await nc.close();
  }
}

function notFound(error: unknown): undefined {
  if (error instanceof JetStreamApiError && error.code === STREAM_NOT_FOUND) return undefined;
  throw error;
}
