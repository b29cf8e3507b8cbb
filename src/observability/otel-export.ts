/**
 * Each run as an OpenTelemetry trace through the official SDK and its OTLP/HTTP exporter: a root span for the run
 * and a child span per component, timed as they ran, with the GenAI semantic-convention attributes on model spans
 * (model, token usage). Loaded only when an OTLP endpoint is configured (otlp-endpoint.ts). Spans are made once
 * the run ended, a turn later, from what its watch noted: nothing on the run path but a timestamp per vertex.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { JobInput } from '../../actors/job.actor.js';
import type { SpanRecord } from '../../protocol/trace.schema.js';
import type { RunResult } from '../runs/run-adapter.js';
import type { WatchedRun } from '../runs/run-watch.js';
import { runSpans } from '../services/records/run-spans.js';
import { TimingWatch } from '../services/records/timing-watch.js';
import type { OtelExport } from './otlp-endpoint.js';

const SHUTDOWN_LIMIT_MS = 3_000;

class ExportWatch extends TimingWatch {
  constructor(
    private readonly tracer: Tracer,
    run: WatchedRun,
    job: JobInput,
  ) {
    super(run, job);
  }

  protected ended(result: RunResult): void {
    const endedAt = Date.now();
    setImmediate(() => exportRun(this.tracer, this, result, endedAt));
  }
}

function exportRun(tracer: Tracer, watch: ExportWatch, result: RunResult, endedAt: number): void {
  const { run, job } = watch;
  const root = tracer.startSpan(`flow ${job.flow.name}`, {
    kind: SpanKind.INTERNAL,
    startTime: watch.startedAt,
    attributes: { 'flowsvc.run.id': run.id, 'flowsvc.flow.id': run.flowId, 'flowsvc.flow.name': job.flow.name, 'flowsvc.run.status': result.status, 'session.id': job.sessionId },
  });
  if (result.status !== 'completed') root.setStatus({ code: SpanStatusCode.ERROR, message: result.failure?.kind ?? result.status });
  const parent = trace.setSpan(ROOT_CONTEXT, root);
  for (const record of runSpans(job, watch, result, endedAt)) {
    const span = tracer.startSpan(record.name, { kind: record.model ? SpanKind.CLIENT : SpanKind.INTERNAL, startTime: record.startedAt, attributes: spanAttributes(record) }, parent);
    if (record.error !== null) span.setStatus({ code: SpanStatusCode.ERROR, message: record.error });
    span.end(record.startedAt + record.latencyMs);
  }
  root.end(endedAt);
}

/** The component's identity, and on model spans the GenAI semantic conventions' request and usage attributes. */
function spanAttributes(record: SpanRecord): Attributes {
  const attributes: Attributes = { 'flowsvc.vertex.id': record.vertexId, 'flowsvc.component.type': record.componentType };
  if (record.model === null && record.tokens === null) return attributes;
  attributes['gen_ai.operation.name'] = 'chat';
  if (record.model !== null) attributes['gen_ai.request.model'] = record.model;
  if (record.tokens) {
    attributes['gen_ai.usage.input_tokens'] = record.tokens.input;
    attributes['gen_ai.usage.output_tokens'] = record.tokens.output;
  }
  return attributes;
}

export function startOtelExport(url: string, serviceName: string): OtelExport {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
  });
  const tracer = provider.getTracer('flowsvc');
  return {
    watcher: { begin: (run, job) => new ExportWatch(tracer, run, job) },
    // Runs that ended this turn export at the next one: their spans go before the provider flushes and stops. An
    // unreachable collector must not hold the shutdown up past a few seconds.
    close: async () => {
      await new Promise<void>((resolve) => setImmediate(resolve));
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_LIMIT_MS)));
      await Promise.race([provider.shutdown(), late]);
      clearTimeout(timer);
    },
  };
}
