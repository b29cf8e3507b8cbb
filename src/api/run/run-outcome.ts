/** Turns a finished v1 run into Langflow's reply, or into the error the caller sees (from the failure table). */
import { runResponse, type RunResponse } from '../../langflow/run-response.js';
import { failureError } from '../../runs/failure-table.js';
import type { RunResult } from '../../runs/run-adapter.js';
import type { PreparedRun } from '../../services/flow-runner.js';

export function replyOf(run: PreparedRun, result: RunResult): RunResponse {
  if (result.failure) throw failureError(result.failure);
  return runResponse(run.graph, result, run.selected, run.sessionId, run.inputs);
}
