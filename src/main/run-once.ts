/**
 * One run of an exported flow in this process, for `flowsvc run`: a store (a data dir's, or a throwaway one),
 * the run lifecycle with one slot, the chat output printed, a failure told on one line.
 */
import { resolve } from 'node:path';
import type { CallersFiles } from '../components/contract.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ActorHost } from '../../actors/actor-host.js';
import type { FlowRecord } from '../../protocol/flow.schema.js';
import type { Tweaks } from '../langflow/tweaks.js';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import type { RunFailure } from '../runs/run-failure.js';
import { failureError } from '../runs/failure-table.js';
import { resultAdapter } from '../runs/run-adapter.js';
import { Runs } from '../runs/run-lifecycle.js';
import { FlowRunner } from '../services/flow-runner.js';
import { setUpCustomComponents } from '../services/custom-components-setup.js';
import { openLmdbStore } from '../store/lmdb/lmdb-store.js';
import type { Store } from '../store/port.js';
import { toText } from '../values/coerce.js';
import { openDataDir } from './cli-data-dir.js';

export interface RunRequest {
  flow: FlowRecord;
  input: string | null;
  session?: string;
  /** Langflow's tweaks: field values by node id or display name, or for every node. */
  tweaks?: Tweaks;
  /** Where the run may look for variables. */
  sources: VariableSourcesUsed;
}

/** Where the run's variables come from, for the message when one is missing. */
export interface VariableSourcesUsed {
  dataDir?: string;
  readEnv: boolean;
}

/** What the run reads and records into: a data dir's store, or a throwaway one removed afterwards. */
interface RunStore {
  store: Store;
  userId: string;
  resolve(userId: string, name: string): Promise<string | undefined>;
  close(): Promise<void>;
}

/** A local run reads files as its user could: a path as given, a relative one from the working directory. */
const LOCAL_FILES: CallersFiles = { open: async (path) => resolve(path) };

/** Runs the flow; sets exit status 1 when it fails. */
export async function runOnce({ flow, input, session, tweaks, sources }: RunRequest): Promise<void> {
  // A local run has no request to carry variables: the environment is where a user keeps keys, so it is read unless refused.
  const config = loadConfig(process.env, { LOG_LEVEL: 'silent', FALLBACK_TO_ENV_VAR: String(sources.readEnv) });
  const target = sources.dataDir ? await dataDirStore(sources.dataDir, config) : throwawayStore();
  const logger = createLogger('silent');
  const host = new ActorHost(target.store.messages, logger);
  const runs = new Runs(host, logger, { timeoutMs: config.JOB_TIMEOUT_SECONDS * 1000, concurrency: 1 });
  // FLOWSVC_CUSTOM_COMPONENTS applies to a local run as to the server (the same sandbox and limits).
  const customs = await setUpCustomComponents(config);
  try {
    const runner = new FlowRunner(config, target, LOCAL_FILES, config.CUSTOM_COMPONENTS ? customs : undefined);
    const prepared = runner.prepare({ flow, userId: target.userId, inputValue: input, sessionId: session, tweaks });
    const result = await runs.start({ id: prepared.jobId, userId: target.userId, flowId: flow.id, job: prepared.job, adapter: resultAdapter }).answer;
    if (result.failure) {
      process.stderr.write(`flowsvc run: ${failureLine(result.failure, sources)}\n`);
      process.exitCode = 1;
      return;
    }
    for (const id of prepared.selected) {
      const message = result.results.get(id)?.message;
      if (message !== undefined) process.stdout.write(`${toText(message)}\n`);
    }
  } finally {
    customs.close();
    runs.close();
    host.close();
    await target.close();
  }
}

async function dataDirStore(dir: string, config: Parameters<typeof openDataDir>[1]): Promise<RunStore> {
  const opened = await openDataDir(dir, config);
  return { ...opened, close: () => opened.store.close() };
}

function throwawayStore(): RunStore {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowsvc-run-'));
  const store = openLmdbStore(dataDir);
  return {
    store,
    userId: 'cli',
    resolve: async () => undefined,
    async close() {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The failure on one line; a missing variable is told where this run looked and how to supply it here. */
function failureLine(failure: RunFailure, sources: VariableSourcesUsed): string {
  if (failure.kind === 'missing_variable') return `${failure.displayName} (${failure.vertexId}): ${missingVariableAdvice(failure.error.variable, sources)}`;
  if (failure.kind === 'component') return `${failure.displayName} (${failure.vertexId}): ${failure.error.message}`;
  return failureError(failure).message;
}

function missingVariableAdvice(name: string, { dataDir, readEnv }: VariableSourcesUsed): string {
  const looked = [dataDir && `the variables stored in ${dataDir}`, readEnv && 'the environment'].filter(Boolean).join(' and ');
  const inEnv = readEnv ? `set ${name} in the environment` : `set ${name} in the environment and drop --no-env`;
  const stored = dataDir ? `store it as a global variable in ${dataDir}` : 'store it as a global variable in a data dir and pass --data-dir DIR';
  return `Variable ${name} not found${looked ? ` in ${looked}` : ''}: ${inEnv}, or ${stored}`;
}
