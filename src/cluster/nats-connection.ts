/**
 * The instance's one connection to NATS, shared by the run logs and the bus. Once connected it never gives up:
 * while the server is away the client keeps trying, and the log says so once when the connection drops and once
 * when it is back (not at every attempt in between). What is published meanwhile does not survive: the client
 * clears its buffer each time it dials again (run-log-writer.ts says what that costs a run's log).
 *
 * The first connection is not retried: an instance configured with a NATS server it cannot reach fails at start,
 * where the mistake is seen, rather than serving runs whose events go nowhere.
 */
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '../logger.js';

export type { NatsConnection };

/** Short enough that a restarted server is found again within a second or so. */
const RECONNECT_WAIT_MS = 1_000;

export async function connectNats(url: string, logger: Logger): Promise<NatsConnection> {
  const nc = await connect({
    servers: url,
    name: 'flowsvc',
    maxReconnectAttempts: -1,
    reconnectTimeWait: RECONNECT_WAIT_MS,
  });
  logger.info({ server: nc.getServer() }, 'connected to NATS');
  void reportStatus(nc, logger);
  return nc;
}

async function reportStatus(nc: NatsConnection, logger: Logger): Promise<void> {
  let down = false;
  for await (const status of nc.status()) {
    if (status.type === 'disconnect' && !down) {
      down = true;
      logger.warn({ server: status.server }, 'NATS connection lost; reconnecting');
    } else if (status.type === 'reconnect') {
      down = false;
      logger.info({ server: status.server }, 'NATS connection back');
    } else if (status.type === 'error') {
      logger.warn({ err: status.error }, 'NATS server reported an error');
    }
  }
}
