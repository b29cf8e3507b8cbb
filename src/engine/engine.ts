/**
 * The engine: an actor system that runs jobs (one job actor per run, one component actor per vertex) and keeps
 * one session actor per (flow, session) as the single writer of message history.
 */
import { dispatch, query, start, stop, type Ref } from 'nact';
import { spawnJob, type JobMsg, type JobOutcome, type JobSpec } from '../../actors/job.actor.js';
import { spawnSession, type SessionMsg, type SessionReply } from '../../actors/session.actor.js';
import type { SessionMemory } from '../components/contract.js';
import type { Logger } from '../logger.js';
import type { MessageRepo } from '../store/port.js';
import type { MessageValue } from '../values/message.js';

/** A reply from a session actor slower than this means something is badly wrong. */
const SESSION_QUERY_MS = 30_000;
/** Session actors unused this long are stopped (their history stays in the store). */
const SESSION_IDLE_MS = 5 * 60_000;

export interface RunHandle {
  jobId: string;
  /** Settles once: completed, failed, cancelled or timed out. */
  outcome: Promise<JobOutcome>;
  cancel(status?: 'cancelled' | 'timed_out'): void;
}

export type RunSpec = Omit<JobSpec, 'memory' | 'logger'> & { signal?: AbortSignal; timeoutMs?: number };

export class Engine {
  private readonly system = start();
  private readonly sessions = new Map<string, { ref: Ref<SessionMsg>; lastUsed: number }>();
  private sessionCount = 0;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly messages: MessageRepo,
    private readonly logger: Logger,
    idleMs = SESSION_IDLE_MS,
  ) {
    this.sweeper = setInterval(() => this.passivate(idleMs), Math.min(idleMs, 60_000)).unref();
  }

  run(spec: RunSpec): RunHandle {
    const controller = new AbortController();
    let settle!: (outcome: JobOutcome) => void;
    const settled = new Promise<JobOutcome>((resolve) => (settle = resolve));
    // A run is complete once the messages it stored are committed.
    const outcome = settled.then(async (result) => {
      const failed = (await Promise.allSettled(writes)).find((w) => w.status === 'rejected');
      if (!failed || result.status !== 'completed') return result;
      const error = (failed as PromiseRejectedResult).reason as Error;
      return { ...result, status: 'failed' as const, failure: { vertexId: '', componentType: '', displayName: 'message store', error } };
    });
    const writes: Promise<void>[] = [];
    const memory = this.memoryFor(spec.flow.id, (committed) => writes.push(committed));
    const job = spawnJob(this.system, { ...spec, memory, logger: this.logger }, controller, settle);
    const cancel = (status: 'cancelled' | 'timed_out' = 'cancelled') => dispatch<JobMsg>(job, { type: 'job.cancel', status });
    const onAbort = () => cancel('cancelled');
    spec.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = spec.timeoutMs ? setTimeout(() => cancel('timed_out'), spec.timeoutMs) : undefined;
    void outcome.finally(() => {
      spec.signal?.removeEventListener('abort', onAbort);
      if (timer) clearTimeout(timer);
    });
    dispatch<JobMsg>(job, { type: 'job.start' });
    if (spec.signal?.aborted) cancel('cancelled');
    return { jobId: spec.jobId, outcome, cancel };
  }

  /** The message history of a flow's sessions, through their session actors; `onWrite` gets each commit. */
  memoryFor(flowId: string, onWrite: (committed: Promise<void>) => void = () => {}): SessionMemory {
    return {
      store: async (message: MessageValue) => {
        const reply = await this.ask(flowId, message.session_id ?? flowId, (replyTo) => ({ type: 'session.store', message, replyTo }));
        onWrite(reply.committed!);
        return reply.message!;
      },
      recent: async ({ sessionId, limit, order, sender, senderName }) => {
        const reply = await this.ask(flowId, sessionId, (replyTo) => ({ type: 'session.recent', limit, newestFirst: order === 'DESC', sender, senderName, replyTo }));
        return reply.messages!;
      },
    };
  }

  close(): void {
    clearInterval(this.sweeper);
    for (const { ref } of this.sessions.values()) stop(ref);
    this.sessions.clear();
    stop(this.system);
  }

  /** Number of live session actors (for tests and metrics). */
  get liveSessions(): number {
    return this.sessions.size;
  }

  /** Stops a session's actor (after its history was edited elsewhere); the next use reloads it from the store. */
  forgetSession(flowId: string, sessionId: string): void {
    const key = `${flowId}\u0000${sessionId}`;
    const session = this.sessions.get(key);
    if (!session) return;
    this.sessions.delete(key);
    stop(session.ref);
  }

  /** Stops session actors idle for `idleMs` or more. */
  passivate(idleMs: number): void {
    const cutoff = Date.now() - idleMs;
    for (const [key, session] of this.sessions) {
      if (session.lastUsed > cutoff) continue;
      this.sessions.delete(key);
      stop(session.ref);
    }
  }

  private async ask(flowId: string, sessionId: string, message: (replyTo: Ref<SessionReply>) => SessionMsg): Promise<SessionReply & { ok: true }> {
    const reply = await query(this.session(flowId, sessionId), message, SESSION_QUERY_MS);
    if (!reply.ok) throw reply.error;
    return reply;
  }

  private session(flowId: string, sessionId: string): Ref<SessionMsg> {
    const key = `${flowId}\u0000${sessionId}`;
    let session = this.sessions.get(key);
    if (!session) {
      session = { ref: spawnSession(this.system, `s${++this.sessionCount}`, { flowId, sessionId }, this.messages, this.logger), lastUsed: 0 };
      this.sessions.set(key, session);
    }
    session.lastUsed = Date.now();
    return session.ref;
  }
}
