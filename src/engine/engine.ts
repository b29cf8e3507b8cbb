/**
 * The engine: an actor system that runs jobs (one job actor per run, its vertices run as tasks reporting to it) and keeps
 * one session actor per (flow, session) as the single writer of message history.
 */
import { dispatch, start, stop, type Ref } from 'nact';
import { spawnJob, type JobMsg, type JobOutcome, type JobSpec } from '../../actors/job.actor.js';
import { spawnSession, type SessionMsg, type SessionOp } from '../../actors/session.actor.js';
import type { SessionMemory } from '../components/contract.js';
import type { Logger } from '../logger.js';
import type { MessageRepo } from '../store/port.js';
import { LazyAbortController } from './lazy-abort.js';
import type { MessageValue } from '../values/message.js';

/** Session actors unused this long are stopped (their history stays in the store). */
const SESSION_IDLE_MS = 5 * 60_000;

export interface RunHandle {
  jobId: string;
  /** Settles once: completed, failed, cancelled or timed out. */
  outcome: Promise<JobOutcome>;
  cancel(status?: 'cancelled' | 'timed_out'): void;
}

/** A run is cancelled through its handle (`cancel`), which is what a caller whose client went away calls. */
export type RunSpec = Omit<JobSpec, 'memory' | 'logger'> & { timeoutMs?: number };

/** A live session actor and the work waiting for it: one batch in flight at a time, the next one gathering. */
interface Session {
  ref: Ref<SessionMsg>;
  lastUsed: number;
  queue: SessionOp[];
  busy: boolean;
}

export class Engine {
  private readonly system = start();
  private readonly sessions = new Map<string, Session>();
  private sessionCount = 0;
  private closed = false;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly messages: MessageRepo,
    private readonly logger: Logger,
    idleMs = SESSION_IDLE_MS,
  ) {
    this.sweeper = setInterval(() => this.passivate(idleMs), Math.min(idleMs, 60_000)).unref();
  }

  run(spec: RunSpec): RunHandle {
    const controller = new LazyAbortController();
    let settle!: (outcome: JobOutcome) => void;
    const settled = new Promise<JobOutcome>((resolve) => (settle = resolve));
    // Writes of one session batch share a commit: each commit is awaited once.
    const writes: Promise<void>[] = [];
    const memory = this.memoryFor(spec.flow.id, (committed) => {
      if (writes[writes.length - 1] !== committed) writes.push(committed);
    });
    // Field by field rather than `{ ...spec, memory, logger }`: the job keeps this object for the whole run, and
    // the spread (megamorphic here) gave every run's copy a hidden class of its own (~0.4 KB each).
    const jobSpec: JobSpec = {
      jobId: spec.jobId,
      flow: spec.flow,
      sessionId: spec.sessionId,
      graph: spec.graph,
      plan: spec.plan,
      overrides: spec.overrides,
      variables: spec.variables,
      filesDir: spec.filesDir,
      memory,
      logger: this.logger,
      emit: spec.emit,
    };
    const job = spawnJob(this.system, jobSpec, controller, settle);
    // The closures below read `timeoutMs`, not `spec`: the job holds its own copy of the spec for the whole run.
    const { timeoutMs } = spec;
    const cancel = (status: 'cancelled' | 'timed_out' = 'cancelled') => dispatch<JobMsg>(job, { type: 'job.cancel', status });
    const timer = timeoutMs ? setTimeout(() => cancel('timed_out'), timeoutMs) : undefined;
    // A run is complete once the messages it stored are committed.
    const outcome = settled.then((result) => {
      if (timer) clearTimeout(timer);
      if (writes.length === 0) return result;
      return Promise.all(writes).then(
        () => result,
        (error: Error): JobOutcome =>
          result.status === 'completed' ? { ...result, status: 'failed', failure: { vertexId: '', componentType: '', displayName: 'message store', error } } : result,
      );
    });
    return { jobId: spec.jobId, outcome, cancel };
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

  close(): void {
    this.closed = true;
    clearInterval(this.sweeper);
    for (const { ref } of this.sessions.values()) stop(ref);
    this.sessions.clear();
    stop(this.system);
  }

  /** Number of live session actors (for tests and metrics). */
  get liveSessions(): number {
    return this.sessions.size;
  }

  /**
   * A session's history was edited elsewhere: its actor rereads it from the store, after the work already asked
   * of it (so no store or read in flight is lost), before anything asked later.
   */
  forgetSession(flowId: string, sessionId: string): void {
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

  /** Queues work for a session actor; what gathers while a batch is in flight goes as the next batch. */
  private enqueue(session: Session, op: SessionOp): void {
    if (this.closed) {
      if (op.type !== 'reload') op.reply({ ok: false, error: new Error('the engine is closed') });
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
