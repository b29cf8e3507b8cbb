/** Stored traces in Langflow's wire shape (its api/v1/traces.py): camelCase keys, ISO times, a span tree. */
import type { z } from 'zod';
import type { SpanRecord, SpanResponse, TraceDetail, TraceRecord, TraceSummary } from '../../protocol/trace.schema.js';

const iso = (ms: number) => new Date(ms).toISOString();

export function traceSummary(trace: TraceRecord): z.infer<typeof TraceSummary> {
  return {
    id: trace.id,
    // Langflow names a trace after its flow and run.
    name: `${trace.flowName} - ${trace.flowId}`,
    status: trace.status,
    startTime: iso(trace.startedAt),
    totalLatencyMs: Math.round(trace.endedAt - trace.startedAt),
    totalTokens: trace.tokens?.total ?? 0,
    totalCost: 0,
    flowId: trace.flowId,
    sessionId: trace.sessionId,
    input: trace.input === null ? null : { input_value: trace.input },
    output: trace.outputSpan === null ? null : (trace.spans[trace.outputSpan]?.outputs ?? null),
  };
}

export function traceDetail(trace: TraceRecord): z.infer<typeof TraceDetail> {
  return { ...traceSummary(trace), endTime: iso(trace.endedAt), spans: trace.spans.map((span) => spanResponse(trace, span)) };
}

function spanResponse(trace: TraceRecord, span: SpanRecord): z.infer<typeof SpanResponse> {
  const { tokens } = span;
  return {
    id: `${trace.id}:${span.vertexId}`,
    name: span.name,
    type: span.model === null && tokens === null ? 'chain' : 'llm',
    status: span.status,
    startTime: iso(span.startedAt),
    endTime: iso(span.startedAt + span.latencyMs),
    latencyMs: Math.round(span.latencyMs),
    inputs: span.inputs,
    outputs: span.outputs,
    error: span.error,
    modelName: span.model,
    tokenUsage: tokens && { promptTokens: tokens.input, completionTokens: tokens.output, totalTokens: tokens.total, cost: 0 },
    children: [],
  };
}
