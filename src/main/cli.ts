/** The `flowsvc` command: serve, api-key create, run. */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { createServices } from '../app.js';
import { uwsIsNative } from '../edge/uws-native.js';
import { startService } from './server.js';

const USAGE = `usage: flowsvc <command>

commands:
  serve                          run the service (FLOWSVC_* environment, see README)
  api-key create [--name NAME]   print a new API key for the superuser
  run <flow.json> --input TEXT   run an exported flow once, without a server, and print the chat output
`;

export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve':
        return await serve();
      case 'api-key':
        return await apiKey(rest);
      case 'run':
        return await run(rest);
      default:
        process.stdout.write(USAGE);
        process.exitCode = command && command !== 'help' && command !== '--help' ? 2 : 0;
    }
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`flowsvc: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

async function serve(): Promise<void> {
  const started = performance.now();
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
  const service = await startService(config, logger);
  logger.info({ url: service.url, native: uwsIsNative, ms: Math.round(performance.now() - started) }, 'flowsvc listening');
  const lines = [`flowsvc listening on ${service.url} (data in ${config.DATA_DIR})`];
  if (service.services.generatedPassword) {
    lines.push(`superuser "${config.SUPERUSER}" created with password: ${service.services.generatedPassword} (shown once)`);
  }
  lines.push('get an API key: npx flowsvc api-key create   (or POST /api/v1/api_key/ with a login token)');
  process.stdout.write(lines.join('\n') + '\n');
  const shutdown = async () => {
    await service.stop();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

async function apiKey(args: string[]): Promise<void> {
  const { positionals, values } = parseArgs({ args, allowPositionals: true, options: { name: { type: 'string' } } });
  if (positionals[0] !== 'create') {
    process.stdout.write(USAGE);
    process.exitCode = 2;
    return;
  }
  const config = loadConfig();
  const services = await createServices(config, createLogger('silent'));
  try {
    const key = await services.apiKeys.create(services.superuserId, values.name ?? 'cli');
    process.stdout.write(`${key.api_key}\n`);
  } finally {
    await services.close();
  }
}

async function run(_args: string[]): Promise<void> {
  process.stderr.write('flowsvc run: the flow engine is not built yet\n');
  process.exitCode = 1;
}
