/**
 * `flowsvc serve`: what the settings name is checked first (the data dir writable and not served by another
 * process, the port free), then the service starts. Nothing is created (store, superuser, generated password) by a
 * start that cannot listen. Failures are one line naming the setting (EnvironmentError, exit 1).
 */
import { loadConfig, type Config } from '../config.js';
import { serviceLogger, type Logger } from '../logger.js';
import { parseCommandArgs, UsageError } from './cli-args.js';
import { SERVE_USAGE } from './cli-usage.js';
import { checkReadableDirs, checkWritableDir } from './data-dir-check.js';
import { lockDataDir } from './data-dir-lock.js';
import { EnvironmentError } from './environment-error.js';
import { checkListenAddress } from './port-check.js';
import type { RunningService } from './server.js';
import { DatabaseUnreachableError } from '../store/pg/unreachable.error.js';

export async function serveCommand(args: string[]): Promise<void> {
  const { positionals, values } = parseCommandArgs(args, { help: { type: 'boolean', short: 'h' } });
  if (values.help) return void process.stdout.write(SERVE_USAGE);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}" (serve is configured by the environment: flowsvc serve --help)`);
  const started = performance.now();
  const config = loadConfig();
  await checkBeforeStart(config);
  const logger = serviceLogger(config);
  const service = await start(config, logger);
  logger.info({ url: service.url, server: service.adapter, ms: Math.round(performance.now() - started) }, 'flowsvc listening');
  const lines = [`flowsvc listening on ${service.url} (data in ${config.DATABASE_URL ? 'PostgreSQL' : config.DATA_DIR})`];
  if (service.services.generatedPassword) {
    lines.push(`superuser "${config.SUPERUSER}" created with password: ${service.services.generatedPassword} (shown once)`);
  }
  lines.push('get an API key: npx flowsvc api-key create   (or POST /api/v1/api_key/ with a login token)');
  process.stdout.write(lines.join('\n') + '\n');
  stopOnSignals(service, config, logger);
}

/** The settings that name parts of this machine, checked in the order a person would fix them. */
async function checkBeforeStart(config: Config): Promise<void> {
  checkReadableDirs('FLOWSVC_FILE_READ_DIRS', config.FILE_READ_DIRS);
  if (config.FILES_DIR) checkWritableDir('FLOWSVC_FILES_DIR', config.FILES_DIR);
  // With PostgreSQL and a files dir of its own, the data dir holds nothing.
  if (!config.DATABASE_URL || !config.FILES_DIR) checkWritableDir('FLOWSVC_DATA_DIR', config.DATA_DIR);
  if (!config.DATABASE_URL) await lockDataDir(config.DATA_DIR);
  // Port 0 is any free port; with SO_REUSEPORT a port in use may be one to share.
  if (config.PORT !== 0 && !config.REUSE_PORT) await checkListenAddress(config.HOST, config.PORT);
}

async function start(config: Config, logger: Logger): Promise<RunningService> {
  // The service loads once the arguments are known to be right: help and usage mistakes answer without it.
  const { startService } = await import('./server.js');
  try {
    return await startService(config, logger);
  } catch (error) {
    if (error instanceof EnvironmentError) throw error;
    // It already names the server and the setting: the line as it is.
    if (error instanceof DatabaseUnreachableError) throw new EnvironmentError(error.message);
    // What no check above foresaw (PostgreSQL or NATS unreachable, a damaged store): one line; the stack at debug.
    logger.debug({ err: error }, 'start-up failed');
    const message = String((error as Error)?.message ?? error).split('\n')[0];
    throw new EnvironmentError(`start-up failed: ${message} (FLOWSVC_LOG_LEVEL=debug logs the details)`);
  }
}

/** The first signal drains (graceful-stop.ts); a second one ends the wait at once, as people expect of Ctrl-C. */
function stopOnSignals(service: RunningService, config: Config, logger: Logger): void {
  let again: () => void = () => {};
  const secondSignal = new Promise<void>((resolve) => (again = resolve));
  const shutdown = async (signal: NodeJS.Signals) => {
    process.on('SIGINT', again).on('SIGTERM', again);
    logger.info({ signal, graceSeconds: config.SHUTDOWN_GRACE_SECONDS }, 'shutting down: no new connections, waiting for the work under way');
    try {
      const { drained } = await service.shutdown(config.SHUTDOWN_GRACE_SECONDS * 1000, secondSignal);
      logger.info({ drained }, 'flowsvc stopped');
      process.exit(0);
    } catch (err) {
      logger.fatal({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}
