/** Starts the whole service: services, route table, uWS edge. Used by `flowsvc serve` and by tests. */
import { buildRoutes } from '../api/routes.js';
import { createServices, type Services } from '../app.js';
import type { Config } from '../config.js';
import { startEdge } from '../edge/uws-server.js';
import { uwsIsNative } from '../edge/uws-native.js';
import type { Logger } from '../logger.js';
import { isLoopback } from '../auth/loopback.js';

export interface RunningService {
  port: number;
  url: string;
  services: Services;
  stop(): Promise<void>;
}

export async function startService(config: Config, logger: Logger): Promise<RunningService> {
  if (uwsIsNative) logger.debug('uWebSockets.js: native binary in use');
  else logger.warn('uWebSockets.js: native binary NOT in use, running the slow JS fallback (is this Node 20?)');
  const services = await createServices(config, logger);
  if (config.AUTO_LOGIN && !isLoopback(config.HOST)) {
    logger.warn(
      config.AUTO_LOGIN_ANY_HOST
        ? `auto-login is on and listening on ${config.HOST}: anyone who reaches the port gets superuser tokens (FLOWSVC_AUTO_LOGIN_ANY_HOST=true)`
        : `auto-login is on and listening on ${config.HOST}: it answers only clients on this machine; others must log in (FLOWSVC_AUTO_LOGIN=false turns it off)`,
    );
  }
  const edge = await startEdge({
    host: config.HOST,
    port: config.PORT,
    routes: buildRoutes(services),
    authenticator: services.authenticator,
    logger,
    bodyLimit: config.MAX_FILE_SIZE_UPLOAD * 1024 * 1024,
    jsonBodyLimit: config.MAX_JSON_BODY_MB * 1024 * 1024,
  });
  // Listening first, then the heavy modules the stored flows need load in the background (start-up stays short).
  void services.moduleWarmUp.storedFlows(services.store.flows);
  const host = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  return {
    port: edge.port,
    url: `http://${host}:${edge.port}`,
    services,
    async stop() {
      edge.close();
      await services.close();
    },
  };
}
