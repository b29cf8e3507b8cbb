/** Assembles the service: store, services, authenticator and route table. Start-up order lives here. */
import { resolve } from 'node:path';
import { ActorHost } from '../actors/actor-host.js';
import type { Authenticator } from './auth/principal.js';
import { createAuthenticator } from './auth/authenticator.js';
import { TokenSigner } from './auth/tokens.js';
import type { Config } from './config.js';
import { ExampleFlows } from './examples/index.js';
import type { Logger } from './logger.js';
import { createMetrics } from './observability/metrics.js';
import { ApiKeysService } from './services/api-keys.service.js';
import { FlowRunner } from './services/flow-runner.js';
import { FlowVersionsService } from './services/flow-versions.service.js';
import { FlowsService } from './services/flows.service.js';
import { WorkflowJobs } from './services/jobs/workflow-jobs.js';
import { BuildJobs } from './services/builds/build-jobs.js';
import { VertexBuildsService } from './services/builds/vertex-builds.service.js';
import { ResponseRuns } from './services/responses/response-runs.js';
import { LogRetention } from './runs/log-retention.js';
import { Runs } from './runs/run-lifecycle.js';
import { CallerFiles } from './services/files/caller-files.js';
import { FlowFilesService } from './services/files/flow-files.service.js';
import { UserFilesService } from './services/files/user-files.service.js';
import { fsFileStorage } from './store/fs-file-storage.js';
import { MessagesService } from './services/messages.service.js';
import { ProjectsService } from './services/projects.service.js';
import { resolveSecretKey } from './services/secret-key.js';
import { UsersService } from './services/users.service.js';
import { VariablesService } from './services/variables.service.js';
import { SecretBox } from './auth/secret-box.js';
import { ModuleWarmUp } from './services/module-warm-up.js';
import { openLmdbStore } from './store/lmdb/lmdb-store.js';
import type { Services } from './services/services.js';

export type { Services };

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
  const host = new ActorHost(store.messages, logger);
  const metrics = await createMetrics(config.PROMETHEUS_ENABLED, store);
  const runs = new Runs(host, logger, { timeoutMs: config.JOB_TIMEOUT_SECONDS * 1000, concurrency: config.JOB_CONCURRENCY, metrics });
  metrics.watchRuns(runs);
  const retention = new LogRetention(config.JOB_RETENTION_SECONDS * 1000, (now) => store.jobs.expireEvents(now), logger);
  const filesDir = resolve(config.DATA_DIR, 'files');
  const fileStorage = fsFileStorage(filesDir);
  const fileLimit = config.MAX_FILE_SIZE_UPLOAD * 1024 * 1024;
  const userFiles = new UserFilesService(store.files, fileStorage, fileLimit);
  const flowFiles = new FlowFilesService(flows, fileStorage, fileLimit);
  const callerFiles = new CallerFiles(filesDir, config.FILE_READ_DIRS, {
    flowOwner: async (flowId) => (await store.flows.get(flowId))?.user_id ?? undefined,
    fileById: (id) => store.files.get(id),
  });
  const runner = new FlowRunner(config, variables, callerFiles);
  const messages = new MessagesService(store, host.sessions);
  const versions = new FlowVersionsService(store.flowVersions);
  const jobs = new WorkflowJobs(runs, store, flows, versions, runner, secrets, retention, logger);
  const responses = new ResponseRuns({ runs, flows, runner, responses: store.responses });
  const vertexBuilds = new VertexBuildsService(store.vertexBuilds, flows, logger);
  const builds = new BuildJobs(runs, runner, vertexBuilds);
  flows.onUpdated = (flow) => runner.forget(flow.id);
  const moduleWarmUp = new ModuleWarmUp(logger);
  flows.onSaved = (flow) => {
    // What the flow needs loads in the background, off the save's path.
    moduleWarmUp.flowSaved(flow.data);
    return versions.record(flow);
  };
  flows.onDeleted = async (doomed) => {
    doomed.forEach((flow) => runner.forget(flow.id, true));
    await Promise.all(doomed.map((flow) => versions.forget(flow.id)));
    await messages.deleteForFlows(doomed.map((flow) => flow.id));
    await flowFiles.deleteForFlows(doomed.map((flow) => flow.id));
    await vertexBuilds.forgetFlows(doomed.map((flow) => flow.id));
  };
  users.onCreated = async (user) => {
    await projects.ensureDefault(user.id);
  };
  users.onDeleted = async (userId) => {
    const [keys, variables] = await Promise.all([store.apiKeys.listByUser(userId), store.variables.listByUser(userId)]);
    await Promise.all([...keys.map((key) => store.apiKeys.delete(key.id)), ...variables.map((variable) => store.variables.delete(variable))]);
    await userFiles.deleteAll(userId);
  };
  // What a killed upload left half written goes (it never had a record).
  const partials = await fileStorage.sweepPartials();
  if (partials > 0) logger.info({ partials }, 'removed files left half written by interrupted uploads');
  const { user: superuser, generatedPassword } = await users.ensureSuperuser(config.SUPERUSER, config.SUPERUSER_PASSWORD);
  const recovered = await runs.recover([jobs.recovery(), responses.recovery()]);
  if (recovered.requeued + recovered.interrupted > 0) logger.info(recovered, 'runs left unfinished by the last process recovered');
  await retention.sweep();
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
    runs,
    runner,
    versions,
    jobs,
    responses,
    builds,
    vertexBuilds,
    retention,
    variables,
    messages,
    userFiles,
    flowFiles,
    moduleWarmUp,
    metrics,
    secrets,
    superuserId: superuser.id,
    generatedPassword,
    authenticator: createAuthenticator({ config, store, apiKeys, tokens, superuserId: () => superuser.id }),
    async close() {
      // Before the store closes: its commit probe must not write to a closed store.
      metrics.close();
      moduleWarmUp.stop();
      runs.close();
      await vertexBuilds.settled();
      retention.close();
      host.close();
      await apiKeys.flush();
      await store.close();
    },
  };
  return services;
}
