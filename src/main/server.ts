/** Starts the whole service: services, route table, edge (uWS or node:http). Used by `flowsvc serve` and by tests. */
import { buildRoutes, buildSocketRoutes } from '../api/routes.js';
import { createServices, type Services } from '../app.js';
import type { Config } from '../config.js';
import { chooseAdapter, type AdapterChoice, type AdapterSetting } from '../edge/adapter-choice.js';
import { startEdge, type EdgeServer } from '../edge/uws-server.js';
import type { Logger } from '../logger.js';
import { isLoopback } from '../auth/loopback.js';
import { stopGracefully, type GracefulStop } from './graceful-stop.js';

export interface RunningService {
  port: number;
  /** The HTTP server that serves: 'uws' or 'node'. */
  adapter: string;
  url: string;
  services: Services;
  /** Stops at once: runs under way are cut off (the next start recovers them). */
  stop(): Promise<void>;
  /** Stops after the requests and runs under way finish, up to `graceMs` (graceful-stop.ts); `cutShort` ends the wait. */
  shutdown(graceMs: number, cutShort?: Promise<unknown>): Promise<GracefulStop>;
}

export async function startService(config: Config, logger: Logger): Promise<RunningService> {
  // The adapter's check (a loopback request to a throwaway uWS listener) runs while the store opens.
  const choosing = chooseAdapter(config.HTTP_SERVER);
  choosing.catch(() => undefined);
  const services = await createServices(config, logger);
  if (config.AUTO_LOGIN && !isLoopback(config.HOST)) {
    logger.warn(
      config.AUTO_LOGIN_ANY_HOST
        ? `auto-login is on and listening on ${config.HOST}: anyone who reaches the port gets superuser tokens (FLOWSVC_AUTO_LOGIN_ANY_HOST=true)`
        : `auto-login is on and listening on ${config.HOST}: it answers only clients on this machine; others must log in (FLOWSVC_AUTO_LOGIN=false turns it off)`,
    );
  }
  let edge: EdgeServer;
  try {
    const choice = await choosing;
    logger.info(`serving with ${whichServer(choice, config.HTTP_SERVER)}`);
    logger.debug(`HTTP server chosen: ${choice.reason}`);
    if (choice.limitation) logger.warn(`known limitation of this HTTP server: ${choice.limitation}`);
    edge = await startEdge({
      host: config.HOST,
      port: config.PORT,
      adapter: choice.adapter,
      reusePort: config.REUSE_PORT,
      routes: buildRoutes(services),
      sockets: buildSocketRoutes(services),
      authenticator: services.authenticator,
      logger,
      metrics: services.metrics,
      bodyLimit: config.MAX_FILE_SIZE_UPLOAD * 1024 * 1024,
      jsonBodyLimit: config.MAX_JSON_BODY_MB * 1024 * 1024,
      bodyIdleMs: config.HTTP_IDLE_TIMEOUT_SECONDS * 1000,
      idleTimeoutMs: config.HTTP_IDLE_TIMEOUT_SECONDS * 1000,
      keepAliveMs: config.HTTP_KEEP_ALIVE_SECONDS * 1000,
      headersTimeoutMs: config.HTTP_HEADERS_TIMEOUT_SECONDS * 1000,
    });
  } catch (error) {
    // Nothing listens: the store and the actors close, so the data dir is left as it was.
    await services.close();
    throw error;
  }
  // Listening first, then the heavy modules the stored flows need load in the background (start-up stays short).
  void services.moduleWarmUp.storedFlows(services.store.flows);
  const host = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  return {
    port: edge.port,
    adapter: edge.adapter,
    url: `http://${host}:${edge.port}`,
    services,
    async stop() {
      edge.close();
      await services.close();
    },
    shutdown: (graceMs, cutShort) => stopGracefully(edge, services, logger, graceMs, cutShort),
  };
}

/**
 * The start-up line about the HTTP server: which one serves and why, calmly. Serving with node:http because the uWS
 * build at hand cannot answer every request is the expected case on many machines, not an alarm; what failed to
 * load, and why, is logged at debug.
 */
function whichServer(choice: AdapterChoice, setting: AdapterSetting): string {
  if (setting !== 'auto') return `${choice.adapter === 'uws' ? 'uWebSockets.js' : 'node:http'} (FLOWSVC_HTTP_SERVER=${setting})`;
  if (choice.adapter === 'uws') return 'uWebSockets.js (FLOWSVC_HTTP_SERVER=auto: its native build here answers every request)';
  return 'node:http (FLOWSVC_HTTP_SERVER=auto: no uWebSockets.js build here answers every request; FLOWSVC_LOG_LEVEL=debug says why)';
}
