/** Assembles the service: store, services, authenticator and route table. Start-up order lives here. */
import { resolve } from 'node:path';
import { ActorHost } from '../actors/actor-host.js';
import type { Authenticator } from './auth/principal.js';
import { createAuthenticator } from './auth/authenticator.js';
import { TokenSigner } from './auth/tokens.js';
import type { Config } from './config.js';
import { ExampleFlows } from './examples/index.js';
import { logRingOf, type Logger } from './logger.js';
import { createMetrics } from './observability/metrics.js';
import { otelExportFrom } from './observability/otlp-endpoint.js';
import { ApiKeysService } from './services/api-keys.service.js';
import { FlowRunner } from './services/flow-runner.js';
import { setUpCustomComponents } from './services/custom-components-setup.js';
import { FlowVersionsService } from './services/flow-versions.service.js';
import { FlowsService } from './services/flows.service.js';
import { WorkflowJobs } from './services/jobs/workflow-jobs.js';
import { BuildJobs } from './services/builds/build-jobs.js';
import { VertexBuildsService } from './services/builds/vertex-builds.service.js';
import { ResponseRuns } from './services/responses/response-runs.js';
import { LogRetention } from './runs/log-retention.js';
import { Runs } from './runs/run-lifecycle.js';
import { allWatchers, type RunWatcher } from './runs/run-watch.js';
import { setUpRunRecords } from './services/records/run-records-setup.js';
import { CallerFiles } from './services/files/caller-files.js';
import { FlowFilesService } from './services/files/flow-files.service.js';
import { RunFiles } from './services/files/run-files.js';
import { UserFilesService } from './services/files/user-files.service.js';
import { fsFileStorage } from './store/fs-file-storage.js';
import { MessagesService } from './services/messages.service.js';
import { ProjectsService } from './services/projects.service.js';
import { resolveSecretKey } from './services/secret-key.js';
import { UsersService } from './services/users.service.js';
import { VariablesService } from './services/variables.service.js';
import { SecretBox } from './auth/secret-box.js';
import { ModuleWarmUp } from './services/module-warm-up.js';
import { McpHub } from './services/mcp/mcp-hub.js';
import { openLmdbStore } from './store/lmdb/lmdb-store.js';
import { openPgStore } from './store/pg/pg-store.js';
import { SharedJobs } from './services/jobs/shared-jobs.js';
import type { Services } from './services/services.js';
import { setUpKnowledge } from './knowledge/knowledge-setup.js';

export type { Services };

export async function createServices(config: Config, logger: Logger): Promise<Services> {
  const store = config.DATABASE_URL
    ? await openPgStore({
        url: config.DATABASE_URL,
        poolSize: config.DATABASE_POOL_SIZE,
        onIdleError: (err) => logger.warn({ err }, 'a PostgreSQL connection failed while idle; the pool opens another'),
      })
    : openLmdbStore(config.DATA_DIR, config.STORE_SYNC);
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
  const filesDir = resolve(config.FILES_DIR ?? resolve(config.DATA_DIR, 'files'));
  // The cluster's modules (the NATS client among them) load only where instances share runs.
  const cluster = config.NATS_URL ? await (await import('./cluster/cluster-setup.js')).joinCluster(config, store, filesDir, logger) : undefined;
  const host = new ActorHost(store.messages, logger);
  const metrics = await createMetrics(config.PROMETHEUS_ENABLED, store);
  const records = setUpRunRecords(config, store, flows, logger);
  // OpenTelemetry only when OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT is set: its packages are not even loaded otherwise.
  const otel = await otelExportFrom(process.env, logger);
  const watchers = [records.recorder, otel?.watcher].filter((watcher): watcher is RunWatcher => watcher !== undefined);
  const runs = new Runs(host, logger, {
    timeoutMs: config.JOB_TIMEOUT_SECONDS * 1000,
    concurrency: config.JOB_CONCURRENCY,
    metrics,
    watcher: allWatchers(watchers),
    sharing: cluster?.sharing,
  });
  metrics.watchRuns(runs);
  const retention = new LogRetention(config.JOB_RETENTION_SECONDS * 1000, (now) => store.jobs.expireEvents(now), logger);
  const fileStorage = fsFileStorage(filesDir);
  const fileLimit = config.MAX_FILE_SIZE_UPLOAD * 1024 * 1024;
  const userFiles = new UserFilesService(store.files, fileStorage, fileLimit);
  const flowFiles = new FlowFilesService(flows, fileStorage, fileLimit);
  const callerFiles = new CallerFiles(filesDir, config.FILE_READ_DIRS, {
    flowOwner: async (flowId) => (await store.flows.get(flowId))?.user_id ?? undefined,
    fileById: (id) => store.files.get(id),
  });
  // One per service: the engine compiles once, sandboxes are pooled; used by flows only where custom code is allowed.
  const customComponents = await setUpCustomComponents(config);
  const runner = new FlowRunner(config, variables, new RunFiles(callerFiles, userFiles), config.CUSTOM_COMPONENTS ? customComponents : undefined);
  const knowledge = await setUpKnowledge({
    store,
    filesDir,
    runs,
    variables,
    secrets,
    logger,
    callerFiles,
    fileName: async (userId, ref) => {
      const file = await store.files.get(ref);
      return file?.user_id === userId ? (file.extension ? `${file.name}.${file.extension}` : file.name) : undefined;
    },
    settings: { fallbackToEnv: config.FALLBACK_TO_ENV_VAR, allowPrivateNetwork: config.ALLOW_PRIVATE_NETWORK, maxChunks: config.KNOWLEDGE_MAX_CHUNKS, defaultEmbeddingModel: config.DEFAULT_EMBEDDING_MODEL },
  });
  runner.knowledge = knowledge.callers;
  const messages = new MessagesService(store, host.sessions);
  const versions = new FlowVersionsService(store.flowVersions);
  const jobs = new WorkflowJobs(runs, store, flows, versions, runner, secrets, retention, logger);
  const sharedJobs = cluster && new SharedJobs({ jobs, runs, store, leased: cluster.leased, logs: cluster.logs, bus: cluster.bus, logger, stopPollMs: 100, stopWaitMs: config.JOB_LEASE_SECONDS * 2000 });
  if (sharedJobs) jobs.sharing = sharedJobs;
  const responses = new ResponseRuns({ runs, flows, runner, responses: store.responses });
  const vertexBuilds = new VertexBuildsService(store.vertexBuilds, flows, logger);
  const builds = new BuildJobs(runs, runner, vertexBuilds);
  const mcp = new McpHub(store, runner, projects, flows);
  // MCP clients hear of flows created, renamed, enabled or deleted (tools/list_changed).
  const toolsChanged = (flow: { user_id: string | null }) => flow.user_id && mcp.flowsChanged(flow.user_id);
  flows.onUpdated = (flow) => {
    runner.forget(flow.id);
    toolsChanged(flow);
  };
  const moduleWarmUp = new ModuleWarmUp(logger);
  flows.onSaved = (flow) => {
    // What the flow needs loads in the background, off the save's path.
    moduleWarmUp.flowSaved(flow.data);
    toolsChanged(flow);
    return versions.record(flow);
  };
  flows.onDeleted = async (doomed) => {
    doomed.forEach((flow) => runner.forget(flow.id, true));
    doomed.forEach(toolsChanged);
    await Promise.all(doomed.map((flow) => versions.forget(flow.id)));
    await messages.deleteForFlows(doomed.map((flow) => flow.id));
    await flowFiles.deleteForFlows(doomed.map((flow) => flow.id));
    await vertexBuilds.forgetFlows(doomed.map((flow) => flow.id));
    await records.service.forget(doomed);
  };
  users.onCreated = async (user) => {
    await projects.ensureDefault(user.id);
  };
  users.onDeleted = async (userId) => {
    const [keys, variables] = await Promise.all([store.apiKeys.listByUser(userId), store.variables.listByUser(userId)]);
    await Promise.all([...keys.map((key) => store.apiKeys.delete(key.id)), ...variables.map((variable) => store.variables.delete(variable))]);
    await userFiles.deleteAll(userId);
    await knowledge.service.dropUser(userId);
  };
  // What a killed upload left half written goes (it never had a record).
  const partials = await fileStorage.sweepPartials();
  if (partials > 0) logger.info({ partials }, 'removed files left half written by interrupted uploads');
  const { user: superuser, generatedPassword } = await users.ensureSuperuser(config.SUPERUSER, config.SUPERUSER_PASSWORD);
  runner.superuserId = superuser.id;
  // With other instances on the store, its unfinished runs may be theirs, still running: left alone here. Where
  // instances share jobs, their leases say whose they are: jobs are claimed and swept, never recovered at start.
  if (await store.openedAlone()) {
    const recovered = await runs.recover(cluster ? [responses.recovery(), knowledge.service.ingestions.recovery()] : [jobs.recovery(), responses.recovery(), knowledge.service.ingestions.recovery()]);
    if (recovered.requeued + recovered.interrupted > 0) logger.info(recovered, 'runs left unfinished by the last process recovered');
  } else logger.info('other instances share the store: the runs it holds unfinished are not recovered by this one');
  await retention.sweep();
  await records.retention.sweep();
  if (sharedJobs) cluster.leased.start(sharedJobs);
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
    logRing: config.ENABLE_LOG_RETRIEVAL ? logRingOf(logger) : undefined,
    records: records.service,
    userFiles,
    flowFiles,
    knowledge,
    moduleWarmUp,
    mcp,
    customComponents,
    metrics,
    secrets,
    superuserId: superuser.id,
    generatedPassword,
    authenticator: createAuthenticator({ config, store, apiKeys, tokens, superuserId: () => superuser.id }),
    async close() {
      // Before the store closes: its commit probe must not write to a closed store.
      metrics.close();
      moduleWarmUp.stop();
      await mcp.close();
      cluster?.leased.close();
      runs.close();
      knowledge.close();
      await vertexBuilds.settled();
      retention.close();
      host.close();
      customComponents.close();
      await records.close();
      await otel?.close();
      await apiKeys.flush();
      await cluster?.close();
      await store.close();
    },
  };
  return services;
}
