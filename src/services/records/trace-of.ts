/** A finished run as its trace: a span per component execution inside (each is also one of its flow's transactions). */
import type { JobInput } from '../../../actors/job.actor.js';
import type { SpanRecord, SpanStatus, TokenCounts, TraceRecord } from '../../../protocol/trace.schema.js';
import { isInputVertex, isOutputVertex } from '../../engine/graph.js';
import type { RunResult } from '../../runs/run-adapter.js';
import type { TerminalStatus } from '../../runs/run-status.js';
import type { WatchedRun } from '../../runs/run-watch.js';
import { runSpans, type RunTimings } from './run-spans.js';

export const TRACE_STATUS: Record<TerminalStatus, SpanStatus> = { completed: 'ok', failed: 'error', timed_out: 'error', cancelled: 'unset' };

export function traceOf(run: WatchedRun, job: JobInput, timings: RunTimings, result: RunResult, endedAt: number): TraceRecord {
  const spans = runSpans(job, timings, result, endedAt);
  return {
    id: run.id,
    userId: run.userId,
    flowId: run.flowId,
    flowName: job.flow.name,
    sessionId: job.sessionId,
    status: TRACE_STATUS[result.status],
    startedAt: timings.startedAt,
    endedAt,
    input: inputOf(job, spans),
    outputSpan: outputSpanOf(job, spans),
    tokens: totalTokens(spans),
    spans,
  };
}

/** The text the run was asked: its first input component's `input_value`. */
function inputOf(job: JobInput, spans: SpanRecord[]): string | null {
  const first = spans.find((span) => {
    const vertex = job.graph.vertices.get(span.vertexId);
    return vertex !== undefined && isInputVertex(vertex);
  });
  return questionText(first?.inputs.input_value ?? first?.outputs.message);
}

/** The text of a recorded question: the value itself, or its `text` (a message's, a data's). */
export function questionText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  const text = (value as { text?: unknown } | null | undefined)?.text;
  return typeof text === 'string' ? text : null;
}

/** What the run answered: the last output component to end, else the last span (when it did not fail). */
function outputSpanOf(job: JobInput, spans: SpanRecord[]): number | null {
  for (let n = spans.length - 1; n >= 0; n--) {
    const vertex = job.graph.vertices.get(spans[n].vertexId);
    if (spans[n].status === 'ok' && vertex !== undefined && isOutputVertex(vertex)) return n;
  }
  const last = spans.length - 1;
  return last >= 0 && spans[last].status === 'ok' ? last : null;
}

function totalTokens(spans: SpanRecord[]): TokenCounts | null {
  let total: TokenCounts | null = null;
  for (const { tokens } of spans) {
    if (!tokens) continue;
    total ??= { input: 0, output: 0, total: 0 };
    total.input += tokens.input;
    total.output += tokens.output;
    total.total += tokens.total;
  }
  return total;
}
