/** The v2 workflow API (spec 2.1-2.7, part 3): requests, the run reply, the job reply, stop. */
import { z } from 'zod';
import { BoundedId, ID_TOO_LONG, idTooLong } from './limits.js';
import { QueryBool } from './common.schema.js';

export const JobStatus = z.enum(['queued', 'in_progress', 'completed', 'failed', 'cancelled', 'timed_out', 'error']).meta({ id: 'JobStatus' });
export type JobStatus = z.infer<typeof JobStatus>;

/** Statuses a job never leaves. */
export const TERMINAL_STATUSES: ReadonlySet<JobStatus> = new Set(['completed', 'failed', 'cancelled', 'timed_out', 'error']);

/** Global variable names: letters and digits of any script, `_`, `-`, `.` and inner spaces (no control characters). */
const GLOBAL_NAME = /^[\p{L}\p{N}_.\-]([\p{L}\p{N}_.\- ]*[\p{L}\p{N}_.\-])?$/u;
export const GLOBAL_VALUE_MAX_BYTES = 64 * 1024;

export const WorkflowGlobals = z
  .record(
    z.string().min(1).max(256).regex(GLOBAL_NAME, 'Global variable names may hold letters, digits, "_", "-", "." and inner spaces'),
    z.string().refine((value) => Buffer.byteLength(value, 'utf8') <= GLOBAL_VALUE_MAX_BYTES, `Value is larger than ${GLOBAL_VALUE_MAX_BYTES} bytes`),
  )
  .meta({ id: 'WorkflowGlobals' });

export const WorkflowRequest = z
  .strictObject({
    flow_id: BoundedId.min(1),
    flow_version: BoundedId.min(1).optional(),
    background: z.boolean().default(false),
    /** Without `background`: the run's events as SSE. With it: the job reply; the client attaches with GET. */
    stream: z.boolean().default(false),
    /** `<component_id>.<param>` -> value. */
    inputs: z.record(z.string(), z.unknown()).nullable().optional(),
    globals: WorkflowGlobals.default({}),
  })
  // A session id given as an input becomes a store key: bounded as every id is (the record's other values are free).
  .superRefine((request, ctx) => {
    for (const [key, value] of Object.entries(request.inputs ?? {})) {
      if (key.endsWith('.session_id') && idTooLong(value)) ctx.addIssue({ code: 'custom', path: ['inputs', key], message: ID_TOO_LONG });
    }
  })
  .meta({ id: 'WorkflowExecutionRequest' });
export type WorkflowRequest = z.infer<typeof WorkflowRequest>;

export const ErrorDetail = z
  .object({ error: z.string(), code: z.string().nullable().optional(), details: z.record(z.string(), z.unknown()).nullable().optional() })
  .meta({ id: 'ErrorDetail' });
export type ErrorDetail = z.infer<typeof ErrorDetail>;

export const ComponentOutput = z
  .object({
    type: z.string(),
    status: JobStatus,
    content: z.unknown().nullable().optional(),
    metadata: z.record(z.string(), z.unknown()).nullable().optional(),
    component_id: z.string().optional(),
  })
  .meta({ id: 'ComponentOutput' });
export type ComponentOutput = z.infer<typeof ComponentOutput>;

export const WorkflowResponse = z
  .object({
    flow_id: z.string(),
    job_id: z.string().nullable().optional(),
    object: z.literal('response'),
    created_timestamp: z.string(),
    created_at: z.number().int(),
    status: JobStatus,
    errors: z.array(ErrorDetail),
    inputs: z.record(z.string(), z.unknown()),
    globals: z.record(z.string(), z.string()),
    outputs: z.record(z.string(), ComponentOutput),
    metadata: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'WorkflowExecutionResponse' });
export type WorkflowResponse = z.infer<typeof WorkflowResponse>;

export const WorkflowJobResponse = z
  .object({
    job_id: z.string(),
    flow_id: z.string(),
    object: z.literal('job'),
    created_timestamp: z.string(),
    status: JobStatus,
    links: z.record(z.string(), z.string()),
    errors: z.array(ErrorDetail),
  })
  .meta({ id: 'WorkflowJobResponse' });
export type WorkflowJobResponse = z.infer<typeof WorkflowJobResponse>;

export const WorkflowStatusQuery = z.object({
  job_id: BoundedId.optional(),
  stream: QueryBool.default(false),
  /** Resume after this event (exclusive), like `Last-Event-ID`. */
  sequence_id: z.coerce.number().int().min(0).optional(),
});

export const WorkflowStopRequest = z.strictObject({ job_id: z.uuid('Invalid job_id, must be a UUID') }).meta({ id: 'WorkflowStopRequest' });

export const WorkflowStopResponse = z.object({ job_id: z.string(), message: z.string().nullable() }).meta({ id: 'WorkflowStopResponse' });
