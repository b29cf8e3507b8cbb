/** The v2 reply shapes built from a job: the run reply (2.2) and the job reply (2.3). */
import type { JobRecord } from '../../../protocol/job.schema.js';
import type { ErrorDetail, JobStatus, WorkflowJobResponse, WorkflowResponse } from '../../../protocol/workflow.schema.js';

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
