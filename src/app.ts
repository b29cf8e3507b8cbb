/** Assembles the service: store, services, authenticator and route table. Start-up order lives here. */
import type { Authenticator } from './auth/principal.js';
import { createAuthenticator } from './auth/authenticator.js';
import { TokenSigner } from './auth/tokens.js';
import type { Config } from './config.js';
import { Engine } from './engine/engine.js';
import { ExampleFlows } from './examples/index.js';
import type { Logger } from './logger.js';
import { ApiKeysService } from './services/api-keys.service.js';
import { FlowRunner } from './services/flow-runner.js';
import { FlowVersionsService } from './services/flow-versions.service.js';
import { FlowsService } from './services/flows.service.js';
import { JobsService } from './services/jobs/jobs.service.js';
import { MessagesService } from './services/messages.service.js';
import { ProjectsService } from './services/projects.service.js';
import { resolveSecretKey } from './services/secret-key.js';
import { UsersService } from './services/users.service.js';
import { VariablesService } from './services/variables.service.js';
import { SecretBox } from './auth/secret-box.js';
import { ModuleWarmUp } from './services/module-warm-up.js';
import { openLmdbStore } from './store/lmdb/lmdb-store.js';
import type { Store } from './store/port.js';

/** Everything handlers may use. Built once per process (or per test server). */
export interface Services {
  config: Config;
  logger: Logger;
  store: Store;
  tokens: TokenSigner;
  users: UsersService;
  apiKeys: ApiKeysService;
  projects: ProjectsService;
  flows: FlowsService;
  /** Our shipped example flows, served from memory (src/examples). */
  examples: ExampleFlows;
  engine: Engine;
  runner: FlowRunner;
  versions: FlowVersionsService;
  jobs: JobsService;
  variables: VariablesService;
  messages: MessagesService;
  /** Loads the heavy modules stored flows need ahead of their first run (started once the service listens). */
  moduleWarmUp: ModuleWarmUp;
  /** Seals secrets kept at rest (credential variables, the store API key). */
  secrets: SecretBox;
  authenticator: Authenticator;
  superuserId: string;
  /** Set when start-up generated the superuser's password (printed once). */
  generatedPassword?: string;
  close(): Promise<void>;
}

export async function createServices(config: Config, logger: Logger): Promise<Services> {
  const store = openLmdbStore(config.DATA_DIR, config.STORE_SYNC);
  const secretKey = await resolveSecretKey(config.SECRET_KEY, store);
  const tokens = new TokenSigner(secretKey);
  const secrets = new SecretBox(secretKey);
  const variables = new VariablesService(store, secrets);
  const users = new UsersService(store);
  const apiKeys = new ApiKeysService(store);
  const projects = new ProjectsService(store, { autoLogin: config.AUTO_LOGIN });
  const examples = new ExampleFlows();
  const flows = new FlowsService(store, projects, examples, { shareExamples: config.AUTO_LOGIN });
  projects.removeFlows = (doomed) => flows.removeAll(doomed);
  const engine = new Engine(store.messages, logger);
  const runner = new FlowRunner(engine, config, variables);
  const messages = new MessagesService(store, engine);
  const versions = new FlowVersionsService(store.flowVersions);
  const jobs = new JobsService(store, flows, versions, runner, secrets, logger, {
    timeoutMs: config.JOB_TIMEOUT_SECONDS * 1000,
    concurrency: config.JOB_CONCURRENCY,
    retentionMs: config.JOB_RETENTION_SECONDS * 1000,
  });
  flows.onUpdated = (flow) => runner.forget(flow.id);
  const moduleWarmUp = new ModuleWarmUp(logger);
  flows.onSaved = (flow) => {
    // After the reply: what the flow needs loads in the background, off the save's path.
    setImmediate(() => moduleWarmUp.flowSaved(flow.data));
    return versions.record(flow);
  };
  flows.onDeleted = async (doomed) => {
    doomed.forEach((flow) => runner.forget(flow.id, true));
    await Promise.all(doomed.map((flow) => versions.forget(flow.id)));
    await messages.deleteForFlows(doomed.map((flow) => flow.id));
  };
  users.onCreated = async (user) => {
    await projects.ensureDefault(user.id);
  };
  users.onDeleted = async (userId) => {
    const [keys, variables] = await Promise.all([store.apiKeys.listByUser(userId), store.variables.listByUser(userId)]);
    await Promise.all([...keys.map((key) => store.apiKeys.delete(key.id)), ...variables.map((variable) => store.variables.delete(variable))]);
  };
  const { user: superuser, generatedPassword } = await users.ensureSuperuser(config.SUPERUSER, config.SUPERUSER_PASSWORD);
  const recovered = await jobs.recover();
  if (recovered.requeued + recovered.interrupted > 0) logger.info(recovered, 'workflow jobs recovered after restart');
  const services: Services = {
    config,
    logger,
    store,
    tokens,
    users,
    apiKeys,
    projects,
    flows,
    examples,
    engine,
    runner,
    versions,
    jobs,
    variables,
    messages,
    moduleWarmUp,
    secrets,
    superuserId: superuser.id,
    generatedPassword,
    authenticator: createAuthenticator({ config, store, apiKeys, tokens, superuserId: () => superuser.id }),
    async close() {
      moduleWarmUp.stop();
      jobs.close();
      engine.close();
      await apiKeys.flush();
      await store.close();
    },
  };
  return services;
}
