/**
 * The one table from a run's failure to what every protocol says of it: the run's final status, the HTTP error
 * kind (v1 runs, the responses endpoint and v2 sync timeouts answer with it), the v2 ErrorDetail code, and the
 * text of each protocol. Entry points read this table and never decide a failure's status or wording themselves.
 */
import type { ErrorDetail } from '../../protocol/workflow.schema.js';
import { AppError, ErrorKind } from '../errors/app.error.js';
import type { RunFailure, RunFailureKind } from './run-failure.js';
import type { TerminalStatus } from './run-status.js';

type Of<K extends RunFailureKind> = Extract<RunFailure, { kind: K }>;

interface Row<K extends RunFailureKind> {
  status: TerminalStatus;
  /** How HTTP answers a caller waiting on the run (src/edge/error-reply.ts maps the kind to a status). */
  http: ErrorKind;
  /** The v2 ErrorDetail code (Langflow's where it has one). */
  code: string;
  /** The text a v1 run (and the responses endpoint) answers with: Langflow's "Error running graph" wording. */
  v1(failure: Of<K>): string;
  /** The text of a v2 ErrorDetail. */
  v2(failure: Of<K>): string;
  /** The `details` of a v2 ErrorDetail. */
  details(failure: Of<K>, flowId: string): Record<string, unknown> | null;
}

type VertexKinds = 'component' | 'missing_variable' | 'missing_model';

const vertexDetails = (f: Of<VertexKinds>, flowId: string) => ({
  flow_id: flowId,
  component_id: f.vertexId,
  component_type: f.componentType,
  display_name: f.displayName,
  error_type: f.error.name,
});
const v2Vertex = (f: Of<VertexKinds>) => `Error running component ${f.displayName} (${f.vertexId}): ${f.error.message}`;
const seconds = (ms: number) => ms / 1000;

const TABLE: { [K in RunFailureKind]: Row<K> } = {
  component: {
    status: 'failed',
    http: ErrorKind.ExecutionFailed,
    code: 'EXECUTION_ERROR',
    v1: (f) => `Error running graph: Error building Component ${f.displayName} (${f.vertexId}): ${f.error.message}`,
    v2: v2Vertex,
    details: vertexDetails,
  },
  missing_variable: {
    status: 'failed',
    http: ErrorKind.BadRequest,
    code: 'MISSING_VARIABLE',
    v1: (f) => f.error.message,
    v2: v2Vertex,
    details: vertexDetails,
  },
  missing_model: {
    status: 'failed',
    http: ErrorKind.BadRequest,
    code: 'MODEL_NOT_CONFIGURED',
    v1: (f) => `${f.displayName} (${f.vertexId}): ${f.error.message}`,
    v2: v2Vertex,
    details: vertexDetails,
  },
  crash: {
    status: 'failed',
    http: ErrorKind.Unexpected,
    code: 'INTERNAL_SERVER_ERROR',
    v1: () => 'Internal Server Error',
    v2: () => 'An unexpected error occurred while running the flow.',
    details: (_f, flowId) => ({ flow_id: flowId }),
  },
  store: {
    status: 'failed',
    http: ErrorKind.Unavailable,
    code: 'DATABASE_ERROR',
    v1: (f) => `The run's messages could not be stored: ${f.error.message}`,
    v2: (f) => `The run's messages could not be stored: ${f.error.message}`,
    details: (_f, flowId) => ({ flow_id: flowId }),
  },
  interrupted: {
    status: 'failed',
    http: ErrorKind.Unavailable,
    code: 'JOB_INTERRUPTED',
    // Only durable runs are interrupted: of the v1-worded ones, that is a background response.
    v1: () => 'The service stopped while this response was running; it did not finish.',
    v2: () => 'The service stopped while this job was running; it did not finish.',
    details: () => null,
  },
  timed_out: {
    status: 'timed_out',
    http: ErrorKind.Timeout,
    code: 'EXECUTION_TIMEOUT',
    v1: (f) => `Flow execution exceeded ${seconds(f.timeoutMs)} seconds`,
    v2: (f) => `Workflow execution exceeded ${seconds(f.timeoutMs)} seconds`,
    details: (f, flowId) => ({ flow_id: flowId, timeout_seconds: seconds(f.timeoutMs) }),
  },
  cancelled: {
    status: 'cancelled',
    http: ErrorKind.Unavailable,
    code: 'JOB_CANCELLED',
    v1: (f) => (f.reason === 'shutdown' ? 'The run was cancelled: the service is shutting down' : 'The run was cancelled'),
    v2: () => 'The job was cancelled',
    details: () => null,
  },
};

function rowOf<K extends RunFailureKind>(failure: Of<K>): Row<K> {
  return TABLE[failure.kind as K];
}

/** The status a run ends with: `completed` without a failure. */
export function statusOf(failure: RunFailure | undefined): TerminalStatus {
  return failure ? rowOf(failure).status : 'completed';
}

/**
 * The failure as the error a waiting HTTP caller gets; the edge turns its kind into a status. v1 callers (and the
 * responses endpoint) get Langflow's wording and a bare `detail`; v2 callers the v2 wording with its code.
 */
export function failureError(failure: RunFailure, protocol: 'v1' | 'v2' = 'v1'): AppError {
  const row = rowOf(failure);
  const text = protocol === 'v1' ? row.v1(failure) : row.v2(failure);
  const error = new AppError(row.http, text, text, { cause: 'error' in failure ? failure.error : undefined });
  if (protocol === 'v2') error.code = row.code;
  return error;
}

/** The failure as a v2 ErrorDetail. */
export function failureDetail(failure: RunFailure, flowId: string): ErrorDetail {
  const row = rowOf(failure);
  return { error: row.v2(failure), code: row.code, details: row.details(failure, flowId) };
}
