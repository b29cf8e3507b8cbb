/**
 * Session actor: one per (flow, session id), passivated by the engine when idle. The single writer of that session's message
 * history, so concurrent runs on one session keep their messages in order; serves Memory reads from its cache.
 * A store is acknowledged at once with the message's id and order, and with a promise of its commit: the run
 * awaits its writes together before it completes, so one run's messages (and many runs' messages) share one LMDB
 * commit instead of paying one each.
 */
import { randomUUID } from 'node:crypto';
import { dispatch, spawn, type Ref } from 'nact';
import type { MessageRepo } from '../src/store/port.js';
import type { MessageValue } from '../src/values/message.js';
import { fromRecord, nextSeq, toRecord } from '../src/engine/message-records.js';
import type { Logger } from '../src/logger.js';

export type SessionMsg =
  | { type: 'session.store'; message: MessageValue; replyTo: Ref<SessionReply> }
  | { type: 'session.recent'; limit: number; newestFirst: boolean; sender?: string; senderName?: string; replyTo: Ref<SessionReply> };

export type SessionReply =
  | { ok: true; message?: MessageValue; messages?: MessageValue[]; committed?: Promise<void> }
  | { ok: false; error: Error };

/** How many recent messages a session keeps in memory. */
const CACHE_MAX = 500;

interface SessionState {
  /** Oldest first. */
  cache: MessageValue[];
  /** True when the cache holds the whole history. */
  complete: boolean;
}

export function spawnSession(parent: Ref<never>, name: string, key: { flowId: string; sessionId: string }, repo: MessageRepo, logger: Logger): Ref<SessionMsg> {
  return spawn(
    parent,
    (state: SessionState, msg: SessionMsg) => {
      if (msg.type === 'session.store') {
        // The actor's own (flow, session) is the record's key, whatever the message says.
        const record = toRecord({ ...msg.message, flow_id: key.flowId }, idFor(state, msg.message), key.sessionId, nextSeq());
        const stored = fromRecord(record);
        state.cache.push(stored);
        if (state.cache.length > CACHE_MAX) {
          state.cache.shift();
          state.complete = false;
        }
        dispatch(msg.replyTo, { ok: true, message: stored, committed: repo.put(record) });
        return state;
      }
      dispatch(msg.replyTo, { ok: true, messages: recent(state, msg) });
      return state;
    },
    name,
    {
      // Passivation is the engine's idle sweep (nact's shutdownAfter leaves a timer that keeps the process alive).
      initialStateFunc: () => {
        const history = repo.session(key.flowId, key.sessionId, { limit: CACHE_MAX + 1, newestFirst: true }).reverse();
        const complete = history.length <= CACHE_MAX;
        return { cache: history.slice(-CACHE_MAX).map(fromRecord), complete };
      },
      onCrash: (msg, error, ctx) => {
        logger.error({ err: error, session: key }, 'session actor crashed; restarting it from the store');
        if (msg) dispatch(msg.replyTo, { ok: false, error: error ?? new Error('session actor crashed') });
        return ctx.reset;
      },
    },
  );

  /**
   * A streamed model reply arrives with the id its tokens already carried, and keeps it so the stream's
   * add_message events and the stored message agree; an id that is already stored gets a fresh one instead.
   */
  function idFor(state: SessionState, message: MessageValue): string {
    const given = message.id;
    if (!given || repo.get(given) || state.cache.some((m) => m.id === given)) return randomUUID();
    return given;
  }

  function recent(state: SessionState, msg: Extract<SessionMsg, { type: 'session.recent' }>): MessageValue[] {
    const matches = (m: MessageValue) => (!msg.sender || m.sender === msg.sender) && (!msg.senderName || m.sender_name === msg.senderName);
    let pool = state.cache.filter(matches);
    if (pool.length < msg.limit && !state.complete) {
      pool = repo.session(key.flowId, key.sessionId, {}).map(fromRecord).filter(matches);
    }
    const newest = pool.slice(-msg.limit);
    return msg.newestFirst ? newest.reverse() : newest;
  }
}
