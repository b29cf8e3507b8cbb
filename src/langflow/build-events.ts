/**
 * A build's events in Langflow's vocabulary (`lfx/events/event_manager.py`): vertices_sorted then build_start,
 * add_message, token, end_vertex with the vertex's VertexBuildResponse, error (an ErrorMessage), end with the
 * build's duration. On the wire each is one JSON object `{"event","data"}` followed by a blank line (NDJSON with
 * blank lines, not SSE). Research: langflow-platform-api.md sections 2-3.
 */
import type { RunEvent } from '../engine/events.js';
import type { FlowGraph, GraphVertex } from '../engine/graph.js';
import type { RunPlan } from '../engine/plan.js';
import { errorMessageData, type ErrorSource } from './error-message.js';
import { langflowTimestamp, messageDict } from './message-dict.js';
import { BUILT_PARAMS, builtResult, failedResult, outputMeta, vertexBuildData, type VertexBuildData } from './vertex-build.js';

/** Where a build's entries go (its run log). */
export interface BuildEntrySink {
  append(event: string, data: unknown): void;
}

/** One Langflow event as a line of the build stream (the blank line after it included). */
export const buildFrame = (event: string, data: unknown): string => `${JSON.stringify({ event, data })}\n\n`;

export interface BuildScope {
  graph: FlowGraph;
  plan: RunPlan;
  flowId: string;
  sessionId: string;
}

/** Turns one build's engine events into Langflow's entries, keeping what `end_vertex` reports (next vertices). */
export class BuildEvents {
  private readonly ended = new Set<string>();
  /** Vertices a router's unchosen branch cut off: never next to run. */
  private readonly inactive = new Set<string>();
  private buildSeconds = 0;

  constructor(
    private readonly scope: BuildScope,
    /** Each vertex build, as reported (vertex build records are written from these). */
    private readonly onVertexBuild: (build: VertexBuildData) => void = () => {},
  ) {}

  /** Appends the entries an engine event stands for (vertices_sorted is followed by build_start). */
  append(event: RunEvent, sink: BuildEntrySink): void {
    switch (event.type) {
      case 'vertices_sorted':
        sink.append('vertices_sorted', { ids: event.ids, to_run: event.to_run });
        sink.append('build_start', {});
        return;
      case 'add_message':
        sink.append('add_message', messageDict(event.message));
        return;
      case 'token':
        sink.append('token', { chunk: event.chunk, id: event.id, timestamp: langflowTimestamp(event.timestamp) });
        return;
      case 'end_vertex': {
        const build = vertexBuildData(event.id, true, BUILT_PARAMS, builtResult(event.outputs, event.durationMs), []);
        build.inactivated_vertices = this.inactivatedBy(event.id, event.outputs);
        this.vertexEnded(this.vertex(event.id), build, sink, event.durationMs);
        return;
      }
      default:
        return;
    }
  }

  /** A vertex failed: its error message, then its build (invalid), then the build's end. */
  vertexFailed(vertexId: string, error: Error, sink: BuildEntrySink): void {
    const vertex = this.vertex(vertexId);
    sink.append('error', this.errorData(error.message, error.name, { id: vertex.id, displayName: vertex.displayName, type: vertex.type }));
    this.vertexEnded(vertex, vertexBuildData(vertex.id, false, error.message, failedResult(vertex, error, 0), []), sink, 0, false);
    this.end(sink);
  }

  /** The flow failed as a whole (timeout, crash, store): an error message naming no component, and no `end`. */
  flowFailed(reason: string, errorName: string, sink: BuildEntrySink): void {
    sink.append('error', this.errorData(reason, errorName));
  }

  /** The build's last event: its duration, the sum of its vertices' (as Langflow's newer `end`). */
  end(sink: BuildEntrySink): void {
    sink.append('end', { build_duration: this.buildSeconds });
  }

  private vertexEnded(vertex: GraphVertex, build: VertexBuildData, sink: BuildEntrySink, durationMs: number, releases = true): void {
    this.buildSeconds += durationMs / 1000;
    this.ended.add(vertex.id);
    if (releases) build.next_vertices_ids = build.top_level_vertices = this.runnableAfter(vertex.id);
    this.onVertexBuild(build);
    sink.append('end_vertex', { build_data: build, output_meta: outputMeta(vertex, this.isTerminal(vertex.id)) });
  }

  /** Successors a router's unchosen output cut off (their edges carry no value): Langflow's `inactivated_vertices`. */
  private inactivatedBy(id: string, outputs: Record<string, unknown>): string[] {
    const cut = new Set<string>();
    for (const edge of this.scope.graph.outgoing.get(id) ?? []) {
      if (this.scope.plan.region.has(edge.target) && outputs[edge.sourceOutput] === undefined) cut.add(edge.target);
    }
    for (const target of cut) this.inactive.add(target);
    return [...cut];
  }

  /** Successors in the build whose every predecessor in it has now ended (what Langflow's editor starts next). */
  private runnableAfter(id: string): string[] {
    const { graph, plan } = this.scope;
    const next = new Set<string>();
    for (const edge of graph.outgoing.get(id) ?? []) {
      if (!plan.region.has(edge.target) || next.has(edge.target) || this.inactive.has(edge.target)) continue;
      if ((plan.incoming.get(edge.target) ?? []).every((e) => this.ended.has(e.source))) next.add(edge.target);
    }
    return [...next];
  }

  private isTerminal(id: string): boolean {
    return !(this.scope.graph.outgoing.get(id) ?? []).some((edge) => this.scope.plan.region.has(edge.target));
  }

  private vertex(id: string): GraphVertex {
    return this.scope.graph.vertices.get(id)!;
  }

  private errorData(reason: string, errorName: string, source?: ErrorSource) {
    return errorMessageData({ reason, errorName, flowId: this.scope.flowId, sessionId: this.scope.sessionId, source });
  }
}
