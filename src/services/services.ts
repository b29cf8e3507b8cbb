/**
 * What route handlers may use: the services, the run lifecycle and the store port, assembled once per process by
 * src/app.ts. Handlers see these and never an actor or the store's implementation.
 */
import type { Authenticator } from '../auth/principal.js';
import type { TokenSigner } from '../auth/tokens.js';
import type { SecretBox } from '../auth/secret-box.js';
import type { Config } from '../config.js';
import type { CustomComponents } from '../components/custom/custom-components.js';
import type { ExampleFlows } from '../examples/index.js';
import type { Logger } from '../logger.js';
import type { LogRing } from '../observability/log-ring.js';
import type { Metrics } from '../observability/metrics.js';
import type { LogRetention } from '../runs/log-retention.js';
import type { Runs } from '../runs/run-lifecycle.js';
import type { Store } from '../store/port.js';
import type { ApiKeysService } from './api-keys.service.js';
import type { BuildJobs } from './builds/build-jobs.js';
import type { VertexBuildsService } from './builds/vertex-builds.service.js';
import type { FlowRunner } from './flow-runner.js';
import type { FlowVersionsService } from './flow-versions.service.js';
import type { FlowsService } from './flows.service.js';
import type { WorkflowJobs } from './jobs/workflow-jobs.js';
import type { MessagesService } from './messages.service.js';
import type { ModuleWarmUp } from './module-warm-up.js';
import type { ProjectsService } from './projects.service.js';
import type { ResponseRuns } from './responses/response-runs.js';
import type { RunRecordsService } from './records/run-records.service.js';
import type { UsersService } from './users.service.js';
import type { VariablesService } from './variables.service.js';
import type { FlowFilesService } from './files/flow-files.service.js';
import type { McpHub } from './mcp/mcp-hub.js';
import type { UserFilesService } from './files/user-files.service.js';
import type { Knowledge } from '../knowledge/knowledge-setup.js';

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
  /** The one run lifecycle every entry point starts its runs through. */
  runs: Runs;
  runner: FlowRunner;
  versions: FlowVersionsService;
  /** v2 workflow jobs (and webhook runs, which are background jobs). */
  jobs: WorkflowJobs;
  /** Runs of the OpenAI-shaped responses endpoint. */
  responses: ResponseRuns;
  /** Builds of the editor's build API, and the vertex builds they record. */
  builds: BuildJobs;
  vertexBuilds: VertexBuildsService;
  /** Retention of finished runs' stored logs. */
  retention: LogRetention;
  variables: VariablesService;
  messages: MessagesService;
  /** The service's recent log lines, when FLOWSVC_ENABLE_LOG_RETRIEVAL is on (served at /logs). */
  logRing?: LogRing;
  /** Records of what ran: traces and transactions. */
  records: RunRecordsService;
  /** v2 files: each user's uploads. */
  userFiles: UserFilesService;
  /** v1 files: each flow's uploads. */
  flowFiles: FlowFilesService;
  /** Knowledge bases: the API's service and what components reach (src/knowledge). */
  knowledge: Knowledge;
  /** Loads the heavy modules stored flows need ahead of their first run (started once the service listens). */
  moduleWarmUp: ModuleWarmUp;
  /** The MCP server's tools (flows) and open sessions. */
  mcp: McpHub;
  /** Custom component sources: checked (validate, custom_component) always; run in flows only when allowed. */
  customComponents: CustomComponents;
  /** What GET /metrics exposes; does nothing when FLOWSVC_PROMETHEUS_ENABLED is off. */
  metrics: Metrics;
  /** Seals secrets kept at rest (credential variables, the store API key). */
  secrets: SecretBox;
  authenticator: Authenticator;
  superuserId: string;
  /** Set when start-up generated the superuser's password (printed once). */
  generatedPassword?: string;
  close(): Promise<void>;
}

