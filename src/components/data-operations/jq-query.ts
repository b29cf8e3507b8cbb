/**
 * Running a jq program over a JSON value: the value goes to the sandbox worker as UTF-8 bytes (moved, not
 * copied), jq-wasm runs there under a deadline, and its results (one compact JSON text per line) come back and
 * are parsed here.
 */
import { ComponentError } from '../component.error.js';
import { SandboxError } from './guarded-worker.js';
import type { JqOutcome } from './jq-engine.js';
import { JQ_TIMEOUT_MS, runInSandbox } from './sandbox.js';

export interface JqSource {
  operation: string;
  field: string;
}

/** Every result of `query` over `document`, in order. */
export async function runJq(document: unknown, query: string, source: JqSource, signal?: AbortSignal): Promise<unknown[]> {
  const input = new TextEncoder().encode(JSON.stringify(document ?? null));
  let outcome: JqOutcome;
  try {
    outcome = await runInSandbox<JqOutcome>({ kind: 'jq', input, query }, { timeoutMs: JQ_TIMEOUT_MS, signal, transfer: [input.buffer as ArrayBuffer] });
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    throw new ComponentError(`${source.operation}: the jq program in ${source.field} ${error.reason === 'failed' ? 'failed' : 'was stopped'}: ${error.message}`);
  }
  if (outcome.status !== 0) {
    const reason = outcome.stderr.replace(/^jq: /, '').replace(/ \(at \/dev\/stdin:\d+\)/g, '').replace(/\n?jq: \d+ compile errors?$/, '') || `jq exited with status ${outcome.status}`;
    throw new ComponentError(`${source.operation}: JQ Query error in ${source.field} "${query}": ${reason}`);
  }
  return parseResults(outcome.stdout);
}

export function parseResults(stdout: Uint8Array): unknown[] {
  const text = new TextDecoder().decode(stdout);
  const results: unknown[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (end > start) results.push(JSON.parse(text.slice(start, end)));
    start = end + 1;
  }
  return results;
}
