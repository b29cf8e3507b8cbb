/**
 * The monitor's view of stored messages: queries scoped to the caller's flows, and edits. Edits write to the store
 * directly, then reset the session's actor, so its cache is rebuilt from the store on next use.
 */
import type { MessageRecord } from '../../protocol/message.schema.js';
import type { SessionPool } from '../../actors/session-pool.js';
import { NotFoundError } from '../errors/index.js';
import type { Store } from '../store/port.js';

export interface MessageQuery {
  flowId?: string;
  sessionId?: string;
  sender?: string;
  senderName?: string;
  orderBy: string;
  order: 'ASC' | 'DESC';
  limit?: number;
  offset?: number;
}

export type MessageChanges = Partial<Pick<MessageRecord, 'text' | 'sender' | 'sender_name' | 'session_id' | 'context_id' | 'files' | 'edit' | 'error' | 'properties'>>;

export class MessagesService {
  constructor(
    private readonly store: Store,
    private readonly sessionActors: SessionPool,
  ) {}

  async list(userId: string, query: MessageQuery): Promise<MessageRecord[]> {
    const matches = (await this.visible(userId, query.flowId)).filter(
      (m) =>
        (query.sessionId === undefined || m.session_id === query.sessionId) &&
        (query.sender === undefined || m.sender === query.sender) &&
        (query.senderName === undefined || m.sender_name === query.senderName),
    );
    const key = query.orderBy;
    // Insertion order breaks ties, so messages stored in the same millisecond keep their order.
    matches.sort((a, b) => compare((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]) || a.seq - b.seq);
    if (query.order === 'DESC') matches.reverse();
    const start = query.offset ?? 0;
    return matches.slice(start, query.limit === undefined ? undefined : start + query.limit);
  }

  async sessions(userId: string, flowId?: string): Promise<string[]> {
    return [...new Set((await this.visible(userId, flowId)).map((m) => m.session_id))];
  }

  async update(userId: string, id: string, changes: MessageChanges): Promise<MessageRecord> {
    const current = await this.owned(userId, id);
    const next: MessageRecord = { ...current };
    for (const [key, value] of Object.entries(changes)) if (value !== undefined && value !== null) (next as Record<string, unknown>)[key] = value;
    if (changes.text !== undefined && changes.text !== current.text) next.edit = true;
    if (next.session_id !== current.session_id) await this.store.messages.delete(current);
    await this.store.messages.put(next);
    this.reset(current, next);
    return next;
  }

  async delete(userId: string, ids: string[]): Promise<void> {
    const found = await Promise.all(ids.map((id) => this.store.messages.get(id)));
    const doomed: MessageRecord[] = [];
    for (const m of found) if (m !== undefined && (await this.ownsFlow(userId, m.flow_id))) doomed.push(m);
    await Promise.all(doomed.map((m) => this.store.messages.delete(m)));
    this.reset(...doomed);
  }

  async renameSession(userId: string, from: string, to: string): Promise<MessageRecord[]> {
    const moving = (await this.visible(userId)).filter((m) => m.session_id === from);
    if (moving.length === 0) throw new NotFoundError('No messages found with the given session ID');
    const moved = moving.map((m) => ({ ...m, session_id: to }));
    await Promise.all(moving.map((m) => this.store.messages.delete(m)));
    await Promise.all(moved.map((m) => this.store.messages.put(m)));
    this.reset(...moving, ...moved);
    return moved;
  }

  async deleteSession(userId: string, sessionId: string): Promise<void> {
    const doomed = (await this.visible(userId)).filter((m) => m.session_id === sessionId);
    await Promise.all(doomed.map((m) => this.store.messages.delete(m)));
    this.reset(...doomed);
  }

  /** Removes every message of deleted flows. */
  async deleteForFlows(flowIds: string[]): Promise<void> {
    for (const flowId of flowIds) {
      const doomed = await this.store.messages.scan(flowId);
      await Promise.all(doomed.map((m) => this.store.messages.delete(m)));
      this.reset(...doomed);
    }
  }

  private async visible(userId: string, flowId?: string): Promise<MessageRecord[]> {
    if (flowId !== undefined) return (await this.ownsFlow(userId, flowId)) ? await this.store.messages.scan(flowId) : [];
    const flows = await this.store.flows.listByUser(userId);
    return (await Promise.all(flows.map((flow) => this.store.messages.scan(flow.id)))).flat();
  }

  private async owned(userId: string, id: string): Promise<MessageRecord> {
    const message = await this.store.messages.get(id);
    if (!message || !(await this.ownsFlow(userId, message.flow_id))) throw new NotFoundError('Message not found');
    return message;
  }

  private async ownsFlow(userId: string, flowId: string | null): Promise<boolean> {
    return flowId !== null && (await this.store.flows.get(flowId))?.user_id === userId;
  }

  private reset(...messages: MessageRecord[]): void {
    const seen = new Set<string>();
    for (const m of messages) {
      const key = `${m.flow_id}\u0000${m.session_id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      this.sessionActors.forget(m.flow_id ?? '', m.session_id);
    }
  }
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === undefined || a === null) return -1;
  if (b === undefined || b === null) return 1;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}
