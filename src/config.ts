/** Service configuration: the FLOWSVC_* environment, parsed once with zod. */
import { isAbsolute } from 'node:path';
import { z } from 'zod';
import { SttProviderName, TtsProviderName } from '../protocol/voice.schema.js';
import { parseModelSetting } from './components/models/default-model.js';

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'TRUE', 'FALSE', 'True', 'False'])
    .optional()
    .transform((v) => (v === undefined ? fallback : ['true', '1', 'yes', 'TRUE', 'True'].includes(v)));

const port = z.coerce.number().int().min(0).max(65535);
const CLUSTER_NAME_FORM = /^[A-Za-z0-9_-]{1,32}$/;
/** Settings whose values are never repeated in an error message. */
const SECRET_SETTINGS = new Set(['API_KEY', 'SECRET_KEY', 'SUPERUSER_PASSWORD', 'DATABASE_URL']);

/** A default model as `provider/model`, checked against the providers the service can call. */
const modelSetting = z
  .string()
  .optional()
  .superRefine((value, ctx) => {
    const parsed = value === undefined ? undefined : parseModelSetting(value);
    if (parsed && 'error' in parsed) ctx.addIssue({ code: 'custom', message: parsed.error });
  });

/** Every variable the service reads, without its FLOWSVC_ prefix. */
export const ConfigSchema = z.object({
  HOST: z.string().min(1).default('127.0.0.1'),
  /** 0 asks the OS for a free port (tests). */
  PORT: port.default(7860),
  DATA_DIR: z.string().min(1).default('./.flowsvc'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  AUTO_LOGIN: bool(true),
  SKIP_AUTH_AUTO_LOGIN: bool(false),
  /** Auto-login answers clients on other machines too (off: loopback clients only). */
  AUTO_LOGIN_ANY_HOST: bool(false),
  /** Which server binds the routes: uWS where its build answers every request (auto), or one forced. */
  HTTP_SERVER: z.enum(['auto', 'uws', 'node']).default('auto'),
  /** Share the port with other listeners (SO_REUSEPORT); off, a second service on a port in use fails to start. */
  REUSE_PORT: bool(false),
  SUPERUSER: z.string().min(1).default('langflow'),
  /** Unset: a password is generated at first start and printed once. */
  SUPERUSER_PASSWORD: z.string().min(1).optional(),
  /** A key that is always valid for the superuser, for deployments and tests. */
  API_KEY: z.string().min(8).optional(),
  /** Unset: generated once and kept in the data dir. */
  SECRET_KEY: z.string().min(16).optional(),
  WEBHOOK_AUTH_ENABLE: bool(true),
  /**
   * Flow variables nobody supplied (request, stored) are read from the service's environment, as Langflow's
   * LANGFLOW_FALLBACK_TO_ENV_VAR (default on there too): a service started with OPENAI_API_KEY runs the starters.
   * Multi-tenant services turn it off, so that users' flows cannot read the service's own keys.
   */
  FALLBACK_TO_ENV_VAR: bool(true),
  /** The model an empty model field takes (`provider/model`); unset, the first enabled provider's default. */
  DEFAULT_MODEL: modelSetting,
  /** The same for embedding model fields. */
  DEFAULT_EMBEDDING_MODEL: modelSetting,
  /**
   * Folders whose files any caller's run may read by absolute path (the File component), comma-separated. Empty:
   * runs read only their caller's uploads.
   */
  FILE_READ_DIRS: z
    .string()
    .default('')
    .transform((value) => value.split(',').map((dir) => dir.trim()).filter(Boolean))
    .pipe(z.array(z.string().refine((dir) => isAbsolute(dir), 'each folder must be an absolute path'))),
  /**
   * URL and API Request may fetch loopback, private, link-local and cloud metadata addresses; off, a flow cannot use
   * them to reach what only the server can (model providers are not affected).
   */
  ALLOW_PRIVATE_NETWORK: bool(false),
  /** Megabytes; the limit of an upload (a multipart body). */
  MAX_FILE_SIZE_UPLOAD: z.coerce.number().positive().default(1024),
  /** Megabytes; the limit of every other request body (JSON, forms, webhook payloads). */
  MAX_JSON_BODY_MB: z.coerce.number().positive().default(32),
  /**
   * Seconds a connection may stay silent before its first request, and a request body between two chunks, before
   * it is closed (node:http; uWS closes both after its own fixed 10 s): one client cannot hold every descriptor.
   */
  HTTP_IDLE_TIMEOUT_SECONDS: z.coerce.number().positive().default(30),
  /** Seconds a request's headers may take to arrive (node:http, checked every 30 s at most; uWS: its fixed 10 s). */
  HTTP_HEADERS_TIMEOUT_SECONDS: z.coerce.number().positive().max(300).default(60),
  /** Seconds a kept-alive connection may stay idle after its last answer (node:http; uWS: its own fixed 10 s). */
  HTTP_KEEP_ALIVE_SECONDS: z.coerce.number().positive().default(10),
  DEVELOPER_API_ENABLED: bool(true),
  /** Longest a v2 workflow job may run before it is `timed_out` (Langflow: 300 s). */
  JOB_TIMEOUT_SECONDS: z.coerce.number().positive().default(300),
  /** Background jobs running at once; more wait `queued`. */
  JOB_CONCURRENCY: z.coerce.number().int().positive().default(64),
  /** SIGTERM/SIGINT: how long requests and runs under way may take to finish before they are cut off. */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).default(30),
  /** How long a finished job's event log is kept (its record and reply stay). */
  JOB_RETENTION_SECONDS: z.coerce.number().positive().default(86_400),
  /**
   * How LMDB commits reach the disk (README, "Durability"). Every mode acknowledges a write once its commit is
   * done, so it survives a crash of the process; they differ on a crash of the machine. `full`: each commit is
   * flushed to disk (before the next one starts). `nometa`: one flush per commit instead of two; a machine crash
   * may undo the last commit. `off`: no flushes; a machine crash may lose recent commits or damage the store.
   */
  STORE_SYNC: z.enum(['full', 'nometa', 'off']).default('full'),
  /**
   * PostgreSQL as the store, shared by every instance given the same URL (README, "Several machines"); unset, the
   * embedded LMDB store in the data dir.
   */
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'a postgres:// URL').optional(),
  /** Connections each instance keeps to PostgreSQL. */
  DATABASE_POOL_SIZE: z.coerce.number().int().positive().default(10),
  /**
   * NATS with JetStream: with DATABASE_URL, instances share runs (a job queue for all, event logs any instance
   * follows, stops and cache invalidations as messages). README, "Several machines".
   */
  NATS_URL: z.string().regex(/^(nats|tls):\/\//, 'a nats:// URL').optional(),
  /**
   * Names this cluster's stream and subjects on NATS, so that several clusters can share one NATS server. Unset: the
   * database's name (from DATABASE_URL), so two deployments on one NATS server never share subjects by default.
   */
  CLUSTER_NAME: z.string().regex(CLUSTER_NAME_FORM, 'letters, digits, - and _ (32 at most)').optional(),
  /** How long a job's lease holds without its owner's heartbeat; then another instance ends the job interrupted. */
  JOB_LEASE_SECONDS: z.coerce.number().positive().max(3600).default(15),
  /** Where file bytes are kept (default DATA_DIR/files); instances sharing runs must share it, and it is checked. */
  FILES_DIR: z.string().min(1).optional(),
  /** Commands MCP Tools may run as stdio MCP servers, comma-separated (exact names); empty: none. */
  MCP_STDIO_COMMANDS: z.string().default('').transform((raw) => raw.split(',').map((command) => command.trim()).filter(Boolean)),
  /** Most elements one Loop component may iterate over in a run; a flow over it fails naming the loop. */
  LOOP_MAX_ITERATIONS: z.coerce.number().int().positive().max(1_000_000).default(1000),
  /** Most chunks one knowledge base ingestion may write. */
  KNOWLEDGE_MAX_CHUNKS: z.coerce.number().int().positive().max(10_000_000).default(500_000),
  /**
   * Flow nodes holding custom component code (JavaScript/TypeScript) run, in a WebAssembly sandbox; off, such a flow
   * is refused with a 400 naming the node. Python code is never run, whatever this says.
   */
  CUSTOM_COMPONENTS: bool(false),
  /** Milliseconds of JavaScript one custom component run may execute (time awaiting the host is not counted). */
  CUSTOM_COMPONENT_CPU_MS: z.coerce.number().int().positive().default(500),
  /** Megabytes of heap one custom component sandbox may grow by. */
  CUSTOM_COMPONENT_MEMORY_MB: z.coerce.number().int().positive().max(2048).default(64),
  /** Host names custom components may `fetch` (exact, comma-separated); empty: custom components have no `fetch`. */
  CUSTOM_COMPONENT_FETCH_HOSTS: z
    .string()
    .default('')
    .transform((value) => value.split(',').map((host) => host.trim().toLowerCase()).filter(Boolean)),
  /** Custom components may `readFile` their caller's own files (through the same checks as the File component). */
  CUSTOM_COMPONENT_READ_FILES: bool(false),
  /** Serves GET /metrics in Prometheus's text format (Langflow's LANGFLOW_PROMETHEUS_ENABLED); off, nothing is counted. */
  PROMETHEUS_ENABLED: bool(false),
  /** Keeps a trace (a span per component) and transactions of every run, for /api/v1/monitor/traces and transactions. */
  TRACES_ENABLED: bool(true),
  /** How long traces and transactions are kept. */
  TRACE_RETENTION_DAYS: z.coerce.number().positive().default(7),
  /** Serves the service's recent log lines at /logs and /logs-stream (superuser only), as Langflow's setting. */
  ENABLE_LOG_RETRIEVAL: bool(false),
  /** Log lines kept in memory for /logs. */
  LOG_RETRIEVER_BUFFER_SIZE: z.coerce.number().int().positive().max(1_000_000).default(10_000),
  /** The voice WebSocket's speech-to-text provider unless the user picks one (`voice.settings`). */
  VOICE_STT: SttProviderName.default('openai-realtime'),
  /** The voice WebSocket's text-to-speech provider unless the user picks one. */
  VOICE_TTS: TtsProviderName.default('openai'),
});

export type Config = Omit<z.output<typeof ConfigSchema>, 'CLUSTER_NAME'> & { CLUSTER_NAME: string };
export type ConfigInput = Partial<Record<keyof z.input<typeof ConfigSchema>, string>>;

/** Raised when a variable has a bad value; the message says which and what, one line per variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads FLOWSVC_* from `env` (process.env by default); `overrides` wins, for tests and the CLI. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: ConfigInput = {}): Config {
  const raw: Record<string, string | undefined> = {};
  for (const key of Object.keys(ConfigSchema.shape)) {
    const value = env[`FLOWSVC_${key}`];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  Object.assign(raw, overrides);
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const key = String(issue.path[0]);
      return `${setting(key, raw[key])} is not valid: ${issue.message}`;
    });
    throw new ConfigError(lines.join('\n'));
  }
  const config = parsed.data;
  if (config.NATS_URL && !config.DATABASE_URL) throw new ConfigError('FLOWSVC_NATS_URL: needs FLOWSVC_DATABASE_URL (instances share runs only where they share the store)');
  if (config.NATS_URL && !config.FILES_DIR) throw new ConfigError('FLOWSVC_FILES_DIR: required with FLOWSVC_NATS_URL (a directory every instance shares, for file bytes)');
  return { ...config, CLUSTER_NAME: config.CLUSTER_NAME ?? clusterNameOf(config.DATABASE_URL, Boolean(config.NATS_URL)) };
}

/** `FLOWSVC_NAME=value`, or only the value's length for a secret: error messages never print secrets. */
function setting(key: string, value: string | undefined): string {
  if (value === undefined) return `FLOWSVC_${key}`;
  return SECRET_SETTINGS.has(key) ? `FLOWSVC_${key} (${value.length} characters, not shown)` : `FLOWSVC_${key}=${value}`;
}

/**
 * The default cluster name: the database's name in FLOWSVC_DATABASE_URL (libpq's default, the user's name, when the
 * URL names none), characters NATS subjects cannot hold as `_`, at most 32. Without a database: `default` (the name
 * matters only with NATS). A cluster that needs a name and has none to derive is told to set one.
 */
function clusterNameOf(databaseUrl: string | undefined, needed: boolean): string {
  const url = databaseUrl && URL.canParse(databaseUrl) ? new URL(databaseUrl) : undefined;
  const name = url ? decodeURIComponent(url.pathname.slice(1) || url.username) : '';
  const derived = name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 32);
  if (CLUSTER_NAME_FORM.test(derived)) return derived;
  if (needed) throw new ConfigError('FLOWSVC_CLUSTER_NAME: required (FLOWSVC_DATABASE_URL names no database to derive it from)');
  return 'default';
}
