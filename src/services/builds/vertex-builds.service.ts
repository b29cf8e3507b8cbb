/**
 * Vertex build records (GET/DELETE /api/v1/monitor/builds): written from the builds' `end_vertex` reports when the
 * build asked for `log_builds`, gathered until the current task's microtasks run and added in one store call, never
 * awaited by a reply; read and cleared by the flow's owner only. They are put in the turn that made them, beside
 * the run's own message writes, so they share LMDB's commit: deferred to a later turn (setImmediate) they made
 * commits of their own, and a streaming build's rate fell by a fifth (bench/scenarios/build.ts).
 */
import { randomUUID } from 'node:crypto';
import type { VertexBuildRecord } from '../../../protocol/build.schema.js';
import type { VertexBuildData } from '../../langflow/vertex-build.js';
import type { Logger } from '../../logger.js';
import type { VertexBuildRepo } from '../../store/port.js';
import type { FlowsService } from '../flows.service.js';

/** Builds kept per vertex of a flow, newest first (Langflow's `max_vertex_builds_per_vertex` default of 1.x). */
export const BUILDS_KEPT_PER_VERTEX = 2;

export class VertexBuildsService {
  private pending: VertexBuildRecord[] = [];
  private flushDue: Promise<void> | undefined;
  private readonly writing = new Set<Promise<void>>();

  constructor(
    private readonly repo: VertexBuildRepo,
    private readonly flows: Pick<FlowsService, 'owned'>,
    private readonly logger: Logger,
  ) {}

  /** Records a vertex's build of `flowId`; written with the others of this turn, in the background. */
  record(flowId: string, build: VertexBuildData): void {
    const { id, valid, params, data, timestamp } = build;
    this.pending.push({ id, build_id: randomUUID(), flow_id: flowId, timestamp, valid, params, data: data as unknown as Record<string, unknown>, artifacts: data.artifacts });
    this.flushDue ??= Promise.resolve().then(() => this.flush());
  }

  /** Resolves once every build recorded so far is written (or failed to be, which is logged). */
  async settled(): Promise<void> {
    await this.flushDue;
    await Promise.all(this.writing);
  }

  /** The flow's builds by vertex id; another user's flow (or an unknown one) has none. */
  async byVertex(userId: string, flowId: string): Promise<Record<string, VertexBuildRecord[]>> {
    if (!(await this.isOwner(userId, flowId))) return {};
    const map: Record<string, VertexBuildRecord[]> = {};
    for (const build of await this.repo.listByFlow(flowId)) (map[build.id] ??= []).push(build);
    return map;
  }

  /** Clears the flow's builds; another user's flow keeps its own (nothing happens, as Langflow). */
  async clear(userId: string, flowId: string): Promise<void> {
    if (await this.isOwner(userId, flowId)) await this.repo.deleteByFlow(flowId);
  }

  /** A deleted flow's builds go with it. */
  forgetFlows(flowIds: string[]): Promise<void> {
    return Promise.all(flowIds.map((id) => this.repo.deleteByFlow(id))).then(() => undefined);
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    this.flushDue = undefined;
    const write = this.repo.add(batch, BUILDS_KEPT_PER_VERTEX).catch((err: unknown) => this.logger.error({ err, builds: batch.length }, 'vertex builds could not be recorded'));
    this.writing.add(write);
    void write.finally(() => this.writing.delete(write));
  }

  private async isOwner(userId: string, flowId: string): Promise<boolean> {
    return this.flows.owned(userId, flowId).then(
      () => true,
      () => false,
    );
  }
}
