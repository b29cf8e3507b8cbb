/**
 * `flowsvc run --data-dir DIR`: a service's data dir opened for one run. The superuser's stored global variables
 * are readable (credentials opened with the secret the service uses); nothing is created: no store, no superuser,
 * no secret key. The run records its messages there, as a run through the service would.
 */
import { SecretBox } from '../auth/secret-box.js';
import type { Config } from '../config.js';
import { VariablesService } from '../services/variables.service.js';
import { holdsLmdbStore, openLmdbStore } from '../store/lmdb/lmdb-store.js';
import type { Store } from '../store/port.js';
import { UsageError } from './cli-args.js';

export interface OpenDataDir {
  store: Store;
  /** The superuser's id: the run is theirs, as `api-key create` keys are. */
  userId: string;
  /** The stored variable called `name`, plain; undefined when the superuser has none by that name. */
  resolve(userId: string, name: string): Promise<string | undefined>;
}

export async function openDataDir(dir: string, config: Pick<Config, 'SUPERUSER' | 'SECRET_KEY'>): Promise<OpenDataDir> {
  // Opening LMDB creates an empty store: a mistyped path would then run with no variables instead of failing.
  if (!holdsLmdbStore(dir)) throw new UsageError(`--data-dir ${dir}: no flowsvc store there (start \`flowsvc serve\` with FLOWSVC_DATA_DIR=${dir} to create one)`);
  const store = openLmdbStore(dir);
  try {
    const superuser = await store.users.getByUsername(config.SUPERUSER);
    if (!superuser) throw new UsageError(`--data-dir ${dir}: its store has no user "${config.SUPERUSER}" (FLOWSVC_SUPERUSER names the superuser whose variables are used)`);
    // The service's secret, looked up rather than resolved: resolving would generate and store one.
    const secret = config.SECRET_KEY ?? (await store.settings.get('secret_key'));
    const variables = new VariablesService(store, new SecretBox(secret ?? ''));
    return {
      store,
      userId: superuser.id,
      async resolve(userId, name) {
        try {
          return await variables.resolve(userId, name);
        } catch {
          throw new Error(`the variable ${name} stored in ${dir} cannot be decrypted with this secret key: run with the FLOWSVC_SECRET_KEY the service was given`);
        }
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
