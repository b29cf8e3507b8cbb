/**
 * The build API (spec 2.10, Langflow's /api/v1/build/...): the editor's and playground's way to run a flow, its
 * event log read back as NDJSON, its cancel, and the vertex build records under /api/v1/monitor/builds.
 */
import { z } from 'zod';
import { QueryBool, QueryInt } from './common.schema.js';
import { BoundedId, BoundedName, LIST_MAX_ITEMS } from './limits.js';

/** How a build's events reach its caller: `polling` and `streaming` answer `{job_id}`, `direct` the events. */
export const EventDelivery = z.enum(['polling', 'streaming', 'direct']);
export type EventDelivery = z.infer<typeof EventDelivery>;

/** Langflow's InputValueRequest (extra fields refused, as its model does). */
export const BuildInputs = z
  .strictObject({
    components: z.array(BoundedId).max(LIST_MAX_ITEMS).nullable().optional(),
    input_value: z.string().nullable().optional(),
    session: BoundedId.nullable().optional(),
    type: z.enum(['chat', 'text', 'any']).nullable().default('any'),
    client_request_time: z.number().int().nullable().optional(),
  })
  .meta({ id: 'InputValueRequest' });

/** A whole flow's graph (Langflow's FlowDataRequest): it replaces the stored one for this build only. */
export const FlowDataRequest = z
  .object({ nodes: z.array(z.record(z.string(), z.unknown())), edges: z.array(z.record(z.string(), z.unknown())), viewport: z.record(z.string(), z.unknown()).nullable().optional() })
  .meta({ id: 'FlowDataRequest' });

/**
 * The body (spec 2.10). Langflow takes start/stop and log_builds in the query; the spec lists them in the body:
 * both are read, the body winning.
 */
export const BuildRequest = z
  .object({
    inputs: BuildInputs.nullable().optional(),
    data: FlowDataRequest.nullable().optional(),
    files: z.array(z.string()).max(LIST_MAX_ITEMS).nullable().optional(),
    start_component_id: BoundedId.nullable().optional(),
    stop_component_id: BoundedId.nullable().optional(),
    log_builds: z.boolean().nullable().optional(),
  })
  .meta({ id: 'BuildFlowRequest' });
export type BuildRequest = z.infer<typeof BuildRequest>;

export const BuildQuery = z.object({
  event_delivery: EventDelivery.default('polling'),
  start_component_id: BoundedId.optional(),
  stop_component_id: BoundedId.optional(),
  log_builds: QueryBool.default(true),
  flow_name: BoundedName.optional(),
});
export type BuildQuery = z.infer<typeof BuildQuery>;

export const BuildJobResponse = z.object({ job_id: z.string() }).meta({ id: 'BuildJobResponse' });

/**
 * Reading a build's events: `streaming` (default) follows the log as NDJSON until it ends, `polling` answers what
 * came since the last poll, `stream=false` (the spec's and Langflow's older flag) everything so far as one JSON
 * array. `sequence_id` skips the first N events: a client that counted N events and reconnects continues there.
 */
export const BuildEventsQuery = z.object({
  event_delivery: EventDelivery.default('streaming'),
  stream: QueryBool.optional(),
  sequence_id: QueryInt.pipe(z.number().int().min(0)).optional(),
});
export type BuildEventsQuery = z.infer<typeof BuildEventsQuery>;

export const BuildEvent = z.object({ event: z.string(), data: z.unknown() }).meta({ id: 'BuildEvent' });

export const CancelFlowResponse = z.object({ success: z.boolean(), message: z.string() }).meta({ id: 'CancelFlowResponse' });

export const JobIdParams = z.object({ job_id: BoundedId });
export const BuildFlowParams = z.object({ flow_id: BoundedId });

/** One stored vertex build (Langflow's VertexBuildTable): `id` is the vertex id, `build_id` the record's own. */
export const VertexBuildRecord = z
  .object({
    id: z.string(),
    build_id: z.string(),
    flow_id: z.string(),
    timestamp: z.string(),
    valid: z.boolean(),
    params: z.string().nullable(),
    data: z.record(z.string(), z.unknown()).nullable(),
    artifacts: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: 'VertexBuildTable' });
export type VertexBuildRecord = z.infer<typeof VertexBuildRecord>;

export const VertexBuildMap = z.object({ vertex_builds: z.record(z.string(), z.array(VertexBuildRecord)) }).meta({ id: 'VertexBuildMapModel' });

export const VertexBuildsQuery = z.object({ flow_id: BoundedId });
