/** The `flowsvc` command: serve, api-key create, run. */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { FlowRecord } from '../../protocol/flow.schema.js';
import { ActorHost } from '../../actors/actor-host.js';
import { AppError } from '../errors/index.js';
import { failureError } from '../runs/failure-table.js';
import { resultAdapter } from '../runs/run-adapter.js';
import { Runs } from '../runs/run-lifecycle.js';
import { FlowRunner } from '../services/flow-runner.js';
import { openLmdbStore } from '../store/lmdb/lmdb-store.js';
import { toText } from '../values/coerce.js';
import { ConfigError, loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { createServices } from '../app.js';
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
    if (error instanceof AppError) {
      process.stderr.write(`flowsvc: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

async function serve(): Promise<void> {
  const started = performance.now();
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
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

/** Runs an exported flow once, with a throwaway store, and prints what its chat outputs said. */
async function run(args: string[]): Promise<void> {
  const { positionals, values } = parseArgs({ args, allowPositionals: true, options: { input: { type: 'string' }, session: { type: 'string' } } });
  const file = positionals[0];
  if (!file) {
    process.stdout.write(USAGE);
    process.exitCode = 2;
    return;
  }
  const exported = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const dataDir = mkdtempSync(join(tmpdir(), 'flowsvc-run-'));
  const config = loadConfig(process.env, { DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const store = openLmdbStore(dataDir);
  const logger = createLogger('silent');
  const host = new ActorHost(store.messages, logger);
  const runs = new Runs(host, logger, { timeoutMs: config.JOB_TIMEOUT_SECONDS * 1000, concurrency: 1 });
  try {
    const flow = exportedFlow(exported);
    const prepared = new FlowRunner(config, { resolve: async () => undefined }).prepare({ flow, userId: 'cli', inputValue: values.input ?? null, sessionId: values.session });
    const result = await runs.start({ id: prepared.jobId, userId: 'cli', flowId: flow.id, job: prepared.job, adapter: resultAdapter }).answer;
    if (result.failure) {
      const failure = result.failure;
      const where = failure.kind === 'component' || failure.kind === 'missing_variable' ? `${failure.displayName} (${failure.vertexId}): ${failure.error.message}` : failureError(failure).message;
      process.stderr.write(`flowsvc run: ${where}\n`);
      process.exitCode = 1;
      return;
    }
    for (const id of prepared.selected) {
      const message = result.results.get(id)?.message;
      if (message !== undefined) process.stdout.write(`${toText(message)}\n`);
    }
  } finally {
    runs.close();
    host.close();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A flow record for an export file that was never stored. */
function exportedFlow(exported: Record<string, unknown>): FlowRecord {
  const now = new Date().toISOString();
  return {
    id: typeof exported.id === 'string' ? exported.id : randomUUID(),
    name: typeof exported.name === 'string' ? exported.name : 'flow',
    description: null, icon: null, icon_bg_color: null, gradient: null,
    data: (exported.data ?? exported) as Record<string, unknown>,
    is_component: false, updated_at: now, webhook: false, endpoint_name: null, tags: [], locked: false,
    mcp_enabled: false, action_name: null, action_description: null, access_type: 'PRIVATE',
    user_id: 'cli', folder_id: null, fs_path: null,
  };
}
