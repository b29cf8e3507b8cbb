/** The `flowsvc` command: serve, api-key create, run, validate. Exit status 2 is a usage mistake, told on one line. */
import { AppError } from '../errors/index.js';
import { ConfigError, loadConfig } from '../config.js';
import { createLogger, serviceLogger } from '../logger.js';
import { parseCommandArgs, UsageError } from './cli-args.js';
import { runCommand } from './cli-run.js';
import { validateCommand } from './cli-validate.js';
import { API_KEY_USAGE, SERVE_USAGE, USAGE } from './cli-usage.js';

const COMMANDS = ['serve', 'api-key', 'run', 'validate'];
const HELP_OPTION = { help: { type: 'boolean', short: 'h' } } as const;

export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve':
        return await serve(rest);
      case 'api-key':
        return await apiKey(rest);
      case 'run':
        return await runCommand(rest);
      case 'validate':
        return await validateCommand(rest);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        return void process.stdout.write(USAGE);
      default:
        throw new UsageError(`unknown command "${command}" (commands: ${COMMANDS.join(', ')}; see flowsvc --help)`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      const who = command && COMMANDS.includes(command) ? `flowsvc ${command}` : 'flowsvc';
      process.stderr.write(`${who}: ${error.message}\n`);
      process.exit(2);
    }
    if (error instanceof ConfigError) {
      process.stderr.write(`flowsvc: ${error.message}\n`);
      process.exit(2);
    }
    if (error instanceof AppError) {
      process.stderr.write(`flowsvc: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

async function serve(args: string[]): Promise<void> {
  const { positionals, values } = parseCommandArgs(args, HELP_OPTION);
  if (values.help) return void process.stdout.write(SERVE_USAGE);
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}" (serve is configured by the environment: flowsvc serve --help)`);
  // The service loads once the arguments are known to be right: help and usage mistakes answer without it.
  const { startService } = await import('./server.js');
  const started = performance.now();
  const config = loadConfig();
  const logger = serviceLogger(config);
  const service = await startService(config, logger);
  logger.info({ url: service.url, server: service.adapter, ms: Math.round(performance.now() - started) }, 'flowsvc listening');
  const lines = [`flowsvc listening on ${service.url} (data in ${config.DATA_DIR})`];
  if (service.services.generatedPassword) {
    lines.push(`superuser "${config.SUPERUSER}" created with password: ${service.services.generatedPassword} (shown once)`);
  }
  lines.push('get an API key: npx flowsvc api-key create   (or POST /api/v1/api_key/ with a login token)');
  process.stdout.write(lines.join('\n') + '\n');
  // The first signal drains (graceful-stop.ts); a second one ends the wait at once, as people expect of Ctrl-C.
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

async function apiKey(args: string[]): Promise<void> {
  const { positionals, values } = parseCommandArgs(args, { ...HELP_OPTION, name: { type: 'string' } });
  if (values.help) return void process.stdout.write(API_KEY_USAGE);
  if (positionals[0] !== 'create' || positionals.length > 1) throw new UsageError('usage: flowsvc api-key create [--name NAME]');
  const { createServices } = await import('../app.js');
  const config = loadConfig();
  const services = await createServices(config, createLogger('silent'));
  try {
    const key = await services.apiKeys.create(services.superuserId, values.name ?? 'cli');
    process.stdout.write(`${key.api_key}\n`);
  } finally {
    await services.close();
  }
}
