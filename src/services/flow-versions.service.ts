/**
 * A flow's version history, keyed by a content hash of its data, so a v2 run can pin the version it was written
 * against (`flow_version`). Every saved change of `data` records a version; unchanged data hashes the same.
 */
import { createHash } from 'node:crypto';
import type { FlowRecord } from '../../protocol/flow.schema.js';
import { NotFoundError } from '../errors/index.js';
import type { FlowVersion, FlowVersionRepo } from '../store/port.js';

/** 16 hex digits (64 bits): collisions within one flow's history are not a practical concern. */
const HASH_LENGTH = 16;

/** JSON with object keys sorted, so equal data hashes equally whatever the key order it was sent in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export const contentHash = (data: unknown): string => createHash('sha256').update(canonical(data)).digest('hex').slice(0, HASH_LENGTH);

export class FlowVersionsService {
  /** The current hash per flow, valid while its updated_at is unchanged (hashing big flows on every run is waste). */
  private readonly current = new Map<string, { updatedAt: string; hash: string }>();

  constructor(private readonly repo: FlowVersionRepo) {}

  hashOf(flow: FlowRecord): string {
    const cached = this.current.get(flow.id);
    if (cached?.updatedAt === flow.updated_at) return cached.hash;
    const hash = contentHash(flow.data ?? null);
    this.current.set(flow.id, { updatedAt: flow.updated_at, hash });
    return hash;
  }

  async record(flow: FlowRecord): Promise<void> {
    if (flow.data === null || flow.data === undefined) return;
    await this.repo.record({ flowId: flow.id, hash: this.hashOf(flow), data: flow.data, createdAt: flow.updated_at });
  }

  /** The stored data of version `hash` of the flow (the current data needs no lookup); 404 when unknown. */
  async resolve(flow: FlowRecord, hash: string): Promise<FlowVersion> {
    if (hash === this.hashOf(flow)) return { flowId: flow.id, hash, data: flow.data, createdAt: flow.updated_at };
    const version = await this.repo.get(flow.id, hash);
    if (!version) throw new NotFoundError(`Flow version '${hash}' of flow '${flow.id}' not found`);
    return version;
  }

  list(flowId: string): Promise<FlowVersion[]> {
    return this.repo.list(flowId);
  }

  async forget(flowId: string): Promise<void> {
    this.current.delete(flowId);
    await this.repo.deleteAll(flowId);
  }
}
