/** The v2 reply shapes built from a job: the run reply (2.2), the job reply (2.3) and the error details (2.5). */
import type { JobOutcome } from '../../../actors/job.actor.js';
import type { JobRecord } from '../../../protocol/job.schema.js';
import type { ErrorDetail, JobStatus, WorkflowJobResponse, WorkflowResponse } from '../../../protocol/workflow.schema.js';
import { VariableNotFoundError } from '../../engine/variables.js';

export type StoredResponse = Omit<WorkflowResponse, 'globals'>;

export const statusLink = (jobId: string) => `/api/v2/workflows?job_id=${jobId}`;

export function jobResponse(record: JobRecord): WorkflowJobResponse {
  return {
    job_id: record.id,
    flow_id: record.flow_id,
    object: 'job',
    created_timestamp: record.created_at,
    status: record.status,
    links: { status: statusLink(record.id), stop: '/api/v2/workflows/stop', stream: `${statusLink(record.id)}&stream=true` },
    errors: record.errors,
  };
}

export function runResponse(record: JobRecord, status: JobStatus, outputs: WorkflowResponse['outputs'], errors: ErrorDetail[]): StoredResponse {
  return {
    flow_id: record.flow_id,
    job_id: record.id,
    object: 'response',
    created_timestamp: record.created_at,
    created_at: Math.floor(Date.parse(record.created_at) / 1000),
    status,
    errors,
    inputs: record.inputs,
    outputs,
    metadata: record.flow_version ? { flow_version: record.flow_version } : {},
  };
}

/** Why a run did not complete, naming the component where one failed. */
export function outcomeErrors(outcome: Pick<JobOutcome, 'status' | 'failure'>, flowId: string, timeoutSeconds: number): ErrorDetail[] {
  switch (outcome.status) {
    case 'completed':
      return [];
    case 'cancelled':
      return [{ error: 'The job was cancelled', code: 'JOB_CANCELLED', details: null }];
    case 'timed_out':
      return [{ error: `Workflow execution exceeded ${timeoutSeconds} seconds`, code: 'EXECUTION_TIMEOUT', details: { flow_id: flowId, timeout_seconds: timeoutSeconds } }];
    case 'failed': {
      const failure = outcome.failure;
      if (!failure) return [{ error: 'The run failed', code: 'EXECUTION_ERROR', details: { flow_id: flowId } }];
      const where = failure.vertexId ? `Error running component ${failure.displayName} (${failure.vertexId}): ` : '';
      return [
        {
          error: `${where}${failure.error.message}`,
          code: failure.error instanceof VariableNotFoundError ? 'MISSING_VARIABLE' : 'EXECUTION_ERROR',
          details: {
            flow_id: flowId,
            component_id: failure.vertexId || null,
            component_type: failure.componentType || null,
            display_name: failure.displayName || null,
            error_type: failure.error.name,
          },
        },
      ];
    }
  }
}
