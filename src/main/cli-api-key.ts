/**
 * `flowsvc api-key create`: a key for the superuser of the store the service uses. The key goes to stdout alone
 * (`KEY=$(flowsvc api-key create)`); which store it was written to goes to stderr, since a key written to another
 * store than the running service's is refused by it. A data dir without a store is not made one unless asked
 * (--init): a mistyped FLOWSVC_DATA_DIR, or a command run from another folder, would otherwise create an empty store
 * whose key the service refuses.
 */
import { resolve } from 'node:path';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { holdsLmdbStore } from '../store/lmdb/lmdb-store.js';
import { parseCommandArgs, UsageError } from './cli-args.js';
import { API_KEY_USAGE } from './cli-usage.js';
import { checkWritableDir } from './data-dir-check.js';
import { EnvironmentError } from './environment-error.js';

const OPTIONS = { help: { type: 'boolean', short: 'h' }, name: { type: 'string' }, init: { type: 'boolean' } } as const;

export async function apiKeyCommand(args: string[]): Promise<void> {
  const { positionals, values } = parseCommandArgs(args, OPTIONS);
  if (values.help) return void process.stdout.write(API_KEY_USAGE);
  if (positionals[0] !== 'create' || positionals.length > 1) throw new UsageError('usage: flowsvc api-key create [--name NAME] [--init]');
  const config = loadConfig();
  const where = config.DATABASE_URL ? 'the PostgreSQL store of FLOWSVC_DATABASE_URL' : `the store in ${resolve(config.DATA_DIR)} (FLOWSVC_DATA_DIR)`;
  if (!config.DATABASE_URL && !holdsLmdbStore(config.DATA_DIR)) {
    if (!values.init) {
      throw new EnvironmentError(
        `FLOWSVC_DATA_DIR=${config.DATA_DIR} holds no flowsvc store (${resolve(config.DATA_DIR)}): run this where the service runs, or set FLOWSVC_DATA_DIR to its data dir; --init creates a store there`,
      );
    }
    checkWritableDir('FLOWSVC_DATA_DIR', config.DATA_DIR);
  }
  const { createServices } = await import('../app.js');
  const services = await createServices(config, createLogger('silent'));
  try {
    const key = await services.apiKeys.create(services.superuserId, values.name ?? 'cli');
    if (services.generatedPassword) {
      process.stderr.write(`flowsvc: new store: superuser "${config.SUPERUSER}" created with password: ${services.generatedPassword} (shown once)\n`);
    }
    process.stderr.write(`flowsvc: key "${values.name ?? 'cli'}" created for "${config.SUPERUSER}" in ${where}\n`);
    process.stdout.write(`${key.api_key}\n`);
  } finally {
    await services.close();
  }
}
