/** Stored jobs of the v2 workflow API: the record, and the events of its log. */
import { z } from 'zod';
import { ErrorDetail, JobStatus, WorkflowResponse } from './workflow.schema.js';

export const JobMode = z.enum(['sync', 'stream', 'background']);
export type JobMode = z.infer<typeof JobMode>;

export const JobRecord = z.object({
  id: z.string(),
  flow_id: z.string(),
  user_id: z.string(),
  mode: JobMode,
  status: JobStatus,
  created_at: z.string(),
  started_at: z.string().optional(),
  finished_at: z.string().optional(),
  /** The pinned content hash, when the request named one. */
  flow_version: z.string().optional(),
  inputs: z.record(z.string(), z.unknown()),
  /** The request's globals, sealed with the service secret (they often hold credentials). */
  globals_sealed: z.string().optional(),
  /**
   * The request's header variables (X-LANGFLOW-GLOBAL-VAR-*, X-FLOWSVC-GLOBAL-VAR-*), sealed the same way: a queued
   * job run after a restart or by another instance runs with them. Never echoed.
   */
  header_globals_sealed: z.string().optional(),
  /** The final reply without its globals echo (added back from `globals_sealed` on read). */
  response: WorkflowResponse.omit({ globals: true }).optional(),
  errors: z.array(ErrorDetail).default([]),
  /** Events in the log when the job ended: a log dropped by retention still resumes at the right number. */
  event_count: z.number().int().default(0),
});
export type JobRecord = z.infer<typeof JobRecord>;

/** One entry of a job's event log; `seq` grows by one from 1. */
export const JobEvent = z.object({ seq: z.number().int().positive(), event: z.string(), data: z.unknown() });
export type JobEvent = z.infer<typeof JobEvent>;
