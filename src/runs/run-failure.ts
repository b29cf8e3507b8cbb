/**
 * Why a run did not complete, as one typed union: callers switch on `kind`, never on whether a vertex id is empty.
 * How each kind reads to a caller (HTTP status, v2 error code, message) is one table: failure-table.ts.
 */
import type { ComponentFailure, CrashFailure, ExecutionEnd } from '../engine/execution-result.js';
import { VariableNotFoundError } from '../engine/variables.js';
import { ModelNotConfiguredError } from '../errors/model-not-configured.error.js';

/** Why someone cancelled a run. */
export type CancelReason = 'stop' | 'client_gone' | 'shutdown';

/** A component asked for a global variable that nothing supplies: the caller's to fix. */
export interface MissingVariableFailure extends Omit<ComponentFailure, 'kind'> {
  kind: 'missing_variable';
  error: VariableNotFoundError;
}

/** An empty model field with no default model (or a default without its key): the caller's to fix. */
export interface MissingModelFailure extends Omit<ComponentFailure, 'kind'> {
  kind: 'missing_model';
  error: ModelNotConfiguredError;
}

export type RunFailure =
  | ComponentFailure
  | MissingVariableFailure
  | MissingModelFailure
  | CrashFailure
  /** The messages the run stored were not committed. */
  | { kind: 'store'; error: Error }
  /** The process stopped while the run was in progress (found at the next start). */
  | { kind: 'interrupted' }
  | { kind: 'timed_out'; timeoutMs: number }
  | { kind: 'cancelled'; reason: CancelReason };

export type RunFailureKind = RunFailure['kind'];

/** A vertex-level failure: a component, or a variable or model it asked for. */
export type VertexFailure = ComponentFailure | MissingVariableFailure | MissingModelFailure;

export function isVertexFailure(failure: RunFailure | undefined): failure is VertexFailure {
  return failure?.kind === 'component' || failure?.kind === 'missing_variable' || failure?.kind === 'missing_model';
}

/**
 * The failure an execution's end stands for; `aborted` is whatever the lifecycle aborted it for (absent when it
 * completed). A component whose error is a missing variable is a missing variable.
 */
export function failureOf(end: ExecutionEnd, aborted: RunFailure | undefined): RunFailure | undefined {
  switch (end.kind) {
    case 'completed':
      return undefined;
    case 'aborted':
      // The engine aborts only when asked; an abort nobody asked for is a crash.
      return aborted ?? { kind: 'crash', error: new Error('the run was aborted') };
    case 'component':
      if (end.error instanceof VariableNotFoundError) return { ...end, kind: 'missing_variable', error: end.error };
      return end.error instanceof ModelNotConfiguredError ? { ...end, kind: 'missing_model', error: end.error } : end;
    case 'crash':
      return end;
  }
}

export const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));
