/**
 * The live session actors, one per (flow, session), and the work waiting for each: the single writers of message
 * history. Work goes to a session actor in batches (one nact message carries every store and read asked for since
 * the previous batch: nact runs one message per event-loop turn). Idle actors are stopped by a sweep (nact's
 * `shutdownAfter` leaves a live timer behind); their history stays in the store.
 */
import { dispatch, stop, type Ref } from 'nact';
import type { SessionMemory } from '../src/components/contract.js';
import type { Logger } from '../src/logger.js';
import type { MessageRepo } from '../src/store/port.js';
import type { MessageValue } from '../src/values/message.js';
import { spawnSession, type SessionMsg, type SessionOp } from './session.actor.js';

/** Session actors unused this long are stopped. */
const SESSION_IDLE_MS = 5 * 60_000;

/** A live session actor and the work waiting for it: one batch in flight at a time, the next one gathering. */
interface Session {
  ref: Ref<SessionMsg>;
  lastUsed: number;
  queue: SessionOp[];
  busy: boolean;
}

export class SessionPool {
  private readonly sessions = new Map<string, Session>();
  private sessionCount = 0;
  private closed = false;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly system: Ref<never>,
    private readonly messages: MessageRepo,
    private readonly logger: Logger,
    idleMs = SESSION_IDLE_MS,
  ) {
    this.sweeper = setInterval(() => this.passivate(idleMs), Math.min(idleMs, 60_000)).unref();
  }

  /** The message history of a flow's sessions, through their session actors; `onWrite` gets each commit. */
  memoryFor(flowId: string, onWrite: (committed: Promise<void>) => void = () => {}): SessionMemory {
    return {
      store: (message: MessageValue) =>
        new Promise((resolve, reject) =>
          this.enqueue(this.session(flowId, message.session_id ?? flowId), {
            type: 'store',
            message,
            reply: (reply) => {
              if (!reply.ok) return reject(reply.error);
              onWrite(reply.value.committed);
              resolve(reply.value.message);
            },
          }),
        ),
      recent: ({ sessionId, limit, order, sender, senderName }) =>
        new Promise((resolve, reject) =>
          this.enqueue(this.session(flowId, sessionId), {
            type: 'recent',
            limit,
            newestFirst: order === 'DESC',
            sender,
            senderName,
            reply: (reply) => (reply.ok ? resolve(reply.value) : reject(reply.error)),
          }),
        ),
    };
  }

  /** Number of live session actors (for tests and metrics). */
  get live(): number {
    return this.sessions.size;
  }

  /**
   * A session's history was edited here, not through its actor: the actor rereads it from the store, after the work
   * already asked of it (so no store or read in flight is lost), before anything asked later. (Where instances share
   * the store, the others' actors see the store's change count move at their next read.)
   */
  forget(flowId: string, sessionId: string): void {
    const session = this.sessions.get(`${flowId}\u0000${sessionId}`);
    if (session) this.enqueue(session, { type: 'reload' });
  }

  /** Stops session actors idle for `idleMs` or more (never one with work in flight). */
  passivate(idleMs: number): void {
    const cutoff = Date.now() - idleMs;
    for (const [key, session] of this.sessions) {
      if (session.lastUsed > cutoff || session.busy || session.queue.length > 0) continue;
      this.sessions.delete(key);
      stop(session.ref);
    }
  }

  close(): void {
    this.closed = true;
    clearInterval(this.sweeper);
    for (const { ref } of this.sessions.values()) stop(ref);
    this.sessions.clear();
  }

  /** Queues work for a session actor; what gathers while a batch is in flight goes as the next batch. */
  private enqueue(session: Session, op: SessionOp): void {
    if (this.closed) {
      if (op.type !== 'reload') op.reply({ ok: false, error: new Error('the session actors are stopped') });
      return;
    }
    session.queue.push(op);
    if (!session.busy) this.send(session);
  }

  private send(session: Session): void {
    const ops = session.queue;
    session.queue = [];
    session.busy = true;
    let done = false;
    dispatch(session.ref, {
      type: 'session.ops',
      ops,
      done: () => {
        if (done) return;
        done = true;
        session.busy = false;
        if (session.queue.length > 0) this.send(session);
      },
    });
  }

  private session(flowId: string, sessionId: string): Session {
    const key = `${flowId}\u0000${sessionId}`;
    let session = this.sessions.get(key);
    if (!session) {
      const ref = spawnSession(this.system, `s${++this.sessionCount}`, { flowId, sessionId }, this.messages, this.logger);
      session = { ref, lastUsed: 0, queue: [], busy: false };
      this.sessions.set(key, session);
    }
    session.lastUsed = Date.now();
    return session;
  }
}
