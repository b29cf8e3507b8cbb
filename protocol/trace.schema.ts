/**
 * Records of what ran (spec 2.12, 4.5): a trace per run with a span per component, stored in our own neutral shape;
 * src/langflow/trace-response.ts turns them into Langflow's camelCase wire shape. Also the monitor queries.
 */
import { z } from 'zod';
import { QueryInt } from './common.schema.js';
import { PageNumber } from './flow-query.schema.js';
import { BoundedId } from './limits.js';

export const TokenCounts = z.object({ input: z.number().int(), output: z.number().int(), total: z.number().int() });
export type TokenCounts = z.infer<typeof TokenCounts>;

/** How a span or a trace ended, in OpenTelemetry's words (Langflow's SpanStatus). */
export const SpanStatus = z.enum(['ok', 'error', 'unset']);
export type SpanStatus = z.infer<typeof SpanStatus>;

/** One component execution of a run. */
export const SpanRecord = z.object({
  vertexId: z.string(),
  /** The first vertex this one feeds (a transaction's target), if any. */
  targetId: z.string().nullable(),
  name: z.string(),
  componentType: z.string(),
  /** Epoch ms. */
  startedAt: z.number(),
  latencyMs: z.number(),
  status: SpanStatus,
  inputs: z.record(z.string(), z.unknown()),
  outputs: z.record(z.string(), z.unknown()),
  error: z.string().nullable(),
  /** Set on model spans: the model a call asked for. */
  model: z.string().nullable(),
  tokens: TokenCounts.nullable(),
});
export type SpanRecord = z.infer<typeof SpanRecord>;

/** One run, whatever its entry point. `id` is the run's id (a v2 job id, a response id, a v1 run's UUID). */
export const TraceRecord = z.object({
  id: z.string(),
  userId: z.string(),
  flowId: z.string(),
  flowName: z.string(),
  sessionId: z.string(),
  status: SpanStatus,
  startedAt: z.number(),
  endedAt: z.number(),
  input: z.string().nullable(),
  /** Which span's outputs are what the run answered (its last output component's), not a copy of them. */
  outputSpan: z.number().int().nullable(),
  tokens: TokenCounts.nullable(),
  spans: z.array(SpanRecord),
});
export type TraceRecord = z.infer<typeof TraceRecord>;

/** Langflow's trace page size: 1..200, 50 by default. */
export const TracesQuery = z.object({
  flow_id: BoundedId.optional(),
  session_id: BoundedId.optional(),
  page: PageNumber.default(1),
  size: QueryInt.pipe(z.number().min(1).max(200)).default(50),
});

export const TraceFlowQuery = z.object({ flow_id: BoundedId });

const Tokens = z.object({ promptTokens: z.number(), completionTokens: z.number(), totalTokens: z.number(), cost: z.number() });

export const TraceSummary = z
  .object({
    id: z.string(),
    name: z.string(),
    status: SpanStatus,
    startTime: z.string(),
    totalLatencyMs: z.number().int(),
    totalTokens: z.number().int(),
    totalCost: z.number(),
    flowId: z.string(),
    sessionId: z.string(),
    input: z.object({ input_value: z.string() }).nullable(),
    output: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: 'TraceSummary' });

export const TraceList = z.object({ traces: z.array(TraceSummary), total: z.number().int(), pages: z.number().int() }).meta({ id: 'TraceList' });

export const SpanResponse = z
  .object({
    id: z.string(),
    name: z.string(),
    type: z.enum(['chain', 'llm']),
    status: SpanStatus,
    startTime: z.string(),
    endTime: z.string(),
    latencyMs: z.number().int(),
    inputs: z.record(z.string(), z.unknown()),
    outputs: z.record(z.string(), z.unknown()),
    error: z.string().nullable(),
    modelName: z.string().nullable(),
    tokenUsage: Tokens.nullable(),
    children: z.array(z.unknown()),
  })
  .meta({ id: 'SpanResponse' });

export const TraceDetail = TraceSummary.extend({ endTime: z.string(), spans: z.array(SpanResponse) }).meta({ id: 'TraceDetail' });
