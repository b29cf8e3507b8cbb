/** Turns a finished job into the v1 reply, or into the error the caller sees (naming the component). */
import type { JobOutcome } from '../../../actors/job.actor.js';
import { BadRequestError, ExecutionFailedError, type AppError } from '../../errors/index.js';
import { VariableNotFoundError } from '../../engine/variables.js';
import { runResponse, type RunResponse } from '../../langflow/run-response.js';
import type { PreparedRun } from '../../services/flow-runner.js';

/** The failure as an error: a missing variable is the caller's to fix (400); anything else failed in execution. */
export function failureError(outcome: JobOutcome): AppError {
  const failure = outcome.failure;
  if (!failure) return new ExecutionFailedError(`The run ended: ${outcome.status}`);
  if (failure.error instanceof VariableNotFoundError) return new BadRequestError(failure.error.message);
  const where = failure.vertexId ? `Error building Component ${failure.displayName} (${failure.vertexId}): ` : '';
  return new ExecutionFailedError(`Error running graph: ${where}${failure.error.message}`, { cause: failure.error });
}

export function replyOf(run: PreparedRun, outcome: JobOutcome): RunResponse {
  if (outcome.status !== 'completed') throw failureError(outcome);
  return runResponse(run.graph, outcome, run.selected, run.sessionId, run.inputs);
}
