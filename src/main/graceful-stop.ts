/**
 * A graceful stop (SIGTERM, SIGINT): the service stops listening, the requests and runs under way finish, and only
 * then does the store close, so a rolling restart loses no acknowledged run. Queued background runs do not start
 * (they stay queued in the store and the next start runs them). Runs still going at the deadline end interrupted,
 * recorded so, and their waiting callers get that answer before the store is flushed and closed.
 */
import type { Services } from '../app.js';
import type { EdgeServer } from '../edge/uws-server.js';
import type { Logger } from '../logger.js';

/** How long answers to interrupted runs may take to go out once the deadline passed. */
const LAST_ANSWERS_MS = 1_000;

export interface GracefulStop {
  /** Whether everything under way finished before the deadline. */
  drained: boolean;
}

export async function stopGracefully(edge: EdgeServer, services: Services, logger: Logger, graceMs: number, cutShort?: Promise<unknown>): Promise<GracefulStop> {
  // Log streams never end on their own: they must not hold the drain up.
  services.logRing?.endFollowers();
  const edgeDrained = edge.drain();
  // MCP sessions keep streams open for notifications: they close as their calls finish, or the drain never ends.
  services.mcp.drain();
  const drained = Promise.all([edgeDrained, services.runs.drain()]).then(() => true);
  const deadline = timer(graceMs);
  const waited = await Promise.race([drained, deadline.passed, ...(cutShort ? [cutShort.then(() => false)] : [])]);
  deadline.clear();
  if (!waited) {
    logger.warn({ graceMs }, 'shutdown: work still under way at the deadline; runs still going end interrupted');
    await services.runs.interrupt();
    const last = timer(LAST_ANSWERS_MS);
    await Promise.race([edgeDrained, last.passed]);
    last.clear();
  }
  edge.close();
  await services.close();
  return { drained: waited === true };
}

function timer(ms: number): { passed: Promise<false>; clear(): void } {
  let handle: NodeJS.Timeout | undefined;
  const passed = new Promise<false>((resolve) => (handle = setTimeout(() => resolve(false), ms)));
  return { passed, clear: () => clearTimeout(handle) };
}
