/**
 * The tasks Data Operations sends to its sandbox worker (sandbox.worker.ts), the shared pool that runs them, and
 * their deadlines. Only user-controlled work goes there: regexes and jq programs.
 */
import { availableParallelism } from 'node:os';
import { WorkerPool, type TaskOptions } from './guarded-worker.js';
import type { JsRegex } from './python-regex.js';
import type { ReplacementPart } from './python-replacement.js';

export type SandboxTask =
  | { kind: 'replace'; regex: JsRegex; text: string; parts: ReplacementPart[] }
  | { kind: 'findall'; regex: JsRegex; text: string; max: number }
  | { kind: 'jq'; input: Uint8Array; query: string };

/** A regex over the largest texts we accept takes well under a second; a catastrophic one never finishes. */
export const REGEX_TIMEOUT_MS = 5_000;
/** jq over a large document can take seconds; a program that loops forever is stopped here. */
export const JQ_TIMEOUT_MS = 30_000;

let pool: WorkerPool | undefined;

export function runInSandbox<T>(task: SandboxTask, options: TaskOptions): Promise<T> {
  pool ??= new WorkerPool(new URL('./sandbox.worker.js', import.meta.url), Math.max(1, Math.min(2, availableParallelism())));
  return pool.run<T>(task, options);
}
