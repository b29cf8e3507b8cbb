/**
 * Session actor: one per (flow, session id), passivated by the session pool (session-pool.ts) when idle. The single writer of that session's message
 * history, so concurrent runs on one session keep their messages in order; serves Memory reads from its cache.
 *
 * It takes its work in batches (`session.ops`: every store, read and reload asked for since the previous batch, in
 * order): nact hands an actor one message per event-loop turn, so one message per store made a busy session a
 * queue of turns. A batch's stores are acknowledged at once with the message's id and order, and with the promise of
 * the one LMDB commit that holds the whole batch; runs await their writes before they complete.
 *
 * Store reads are asynchronous: the actor's initial state is the promise of its history, which the first batch
 * awaits (nact hands an actor its next message only once the handler's promise settles, so nothing is answered,
 * and no op overtakes another, before the history is in).
 *
 * Where instances share the store, another one may append to this session at any time. The store counts each
 * session's changes (`MessageRepo.changes`), and the actor keeps the count its cache reflects (the loaded count plus
 * its own committed appends). A batch that reads the history first compares the two and rereads when they differ. A
 * turn committed through another instance before a read was asked for is therefore in that read, which a message on
 * the bus could not promise: it may arrive after the next request.
 */
import { timeOrderedId } from '../src/ids/time-ordered-id.js';
import { spawn, type ActorFunc, type Ref } from 'nact';
import type { MessageRecord } from '../protocol/message.schema.js';
import type { MessageRepo } from '../src/store/port.js';
import type { MessageValue } from '../src/values/message.js';
import { fromRecord, nextSeq, toRecord } from '../src/engine/message-records.js';
import type { Logger } from '../src/logger.js';

export type SessionReply<T> = { ok: true; value: T } | { ok: false; error: Error };

export interface StoredMessage {
  message: MessageValue;
  /** Settles when the LMDB commit holding the message is done. */
  committed: Promise<void>;
}

export type SessionOp =
  | { type: 'store'; message: MessageValue; reply: (reply: SessionReply<StoredMessage>) => void }
  | { type: 'recent'; limit: number; newestFirst: boolean; sender?: string; senderName?: string; reply: (reply: SessionReply<MessageValue[]>) => void }
  /** The history was edited elsewhere: reread it from the store (after this session's own writes are committed). */
  | { type: 'reload' };

/** `done` is called once the batch is handled (or failed), so the session pool can send the next one. */
export type SessionMsg = { type: 'session.ops'; ops: SessionOp[]; done: () => void };

/** How many recent messages a session keeps in memory. */
const CACHE_MAX = 500;
/**
 * How many a reread after another instance's change takes: Langflow's Memory default. Where turns come round-robin
 * through several instances, every read follows such a change; the cache grows back from there with this
 * instance's own appends, and a longer read than it holds goes to the store.
 */
const REREAD_MAX = 100;

interface SessionState {
  /** Oldest first. */
  cache: MessageValue[];
  /** True when the cache holds the whole history. */
  complete: boolean;
  /** Settles once every batch of writes so far is committed (or failed). */
  lastCommit: Promise<void>;
  /** The store's change count this cache reflects (NaN once a write failed: the next check rereads). */
  changes: number;
}

/** What nact holds for the actor: its state, or the promise of it while the history is first read. */
type ActorState = SessionState | Promise<SessionState>;

const COMMITTED = Promise.resolve();

type StoreOp = Extract<SessionOp, { type: 'store' }>;
type StoreAck = [StoreOp, MessageValue];

export function spawnSession(parent: Ref<never>, name: string, key: { flowId: string; sessionId: string }, repo: MessageRepo, logger: Logger): Ref<SessionMsg> {
  return spawn<Ref<never>, ActorFunc<ActorState, SessionMsg, Ref<never>>>(
    parent,
    // Not an async function: a batch that needs no read (the common case) is handled in the turn nact gives it,
    // without a promise per batch and per op.
    (current, msg) => (current instanceof Promise ? current.then((state) => batch(state, msg)) : batch(current, msg)),
    name,
    {
      // Passivation is the session pool's idle sweep (nact's shutdownAfter leaves a timer that keeps the process alive).
      initialStateFunc: () => {
        const loading = load(COMMITTED);
        // Awaited by the first batch, whose handler then fails and restarts the actor (onCrash); not before.
        loading.catch(() => undefined);
        return loading;
      },
      onCrash: (msg, error, ctx) => {
        logger.error({ err: error, session: key }, 'session actor crashed; restarting it from the store');
        if (msg) {
          const failure = { ok: false as const, error: error ?? new Error('session actor crashed') };
          // Replies already sent stay sent: a settled promise ignores the second answer.
          for (const op of msg.ops) if (op.type !== 'reload') op.reply(failure);
          msg.done();
        }
        return ctx.reset;
      },
    },
  );

  async function load(lastCommit: Promise<void>, size = CACHE_MAX): Promise<SessionState> {
    // Counted before the history is read: a change landing between the two makes the next check reread, never miss.
    const changes = repo.changes ? await repo.changes(key.flowId, key.sessionId) : 0;
    const history = (await repo.session(key.flowId, key.sessionId, { limit: size + 1, newestFirst: true })).reverse();
    const complete = history.length <= size;
    return { cache: history.slice(-size).map(fromRecord), complete, lastCommit, changes };
  }

  function batch(state: SessionState, msg: SessionMsg): ActorState {
    const check = msg.ops.findIndex((op) => op.type === 'reload' || (op.type === 'recent' && repo.changes));
    if (check !== -1) return handleWithChecks(state, msg, check);
    const pending = handle(state, msg.ops);
    if (!pending) {
      msg.done();
      return state;
    }
    return pending.then(() => {
      msg.done();
      return state;
    });
  }

  /**
   * A batch without reloads: stores and reads in order, the stores' records in one commit. Synchronous until an op
   * needs the store (an id the cache does not know, a read past the cache); the rest of the batch then follows that
   * read, in order.
   */
  function handle(state: SessionState, ops: SessionOp[], from = 0, records: MessageRecord[] = [], stored: StoreAck[] = []): Promise<void> | undefined {
    for (let i = from; i < ops.length; i++) {
      const op = ops[i];
      if (op.type === 'store') {
        const id = idFor(state, op.message);
        if (typeof id !== 'string') {
          return id.then((known) => {
            keep(state, op, known, records, stored);
            return handle(state, ops, i + 1, records, stored);
          });
        }
        keep(state, op, id, records, stored);
      } else if (op.type === 'recent') {
        const found = recent(state, op);
        if (!Array.isArray(found)) {
          return found.then((value) => {
            op.reply({ ok: true, value });
            return handle(state, ops, i + 1, records, stored);
          });
        }
        op.reply({ ok: true, value: found });
      }
    }
    commit(state, records, stored);
    return undefined;
  }

  /** A store op's record, cached at once; acknowledged with the batch's commit. */
  function keep(state: SessionState, op: StoreOp, id: string, records: MessageRecord[], stored: StoreAck[]): void {
    // The actor's own (flow, session) is the record's key, whatever the message says.
    const record = toRecord({ ...op.message, flow_id: key.flowId }, id, key.sessionId, nextSeq());
    const message = fromRecord(record);
    state.cache.push(message);
    if (state.cache.length > CACHE_MAX) {
      state.cache.shift();
      state.complete = false;
    }
    records.push(record);
    stored.push([op, message]);
  }

  function commit(state: SessionState, records: MessageRecord[], stored: StoreAck[]): void {
    if (records.length === 0) return;
    // Puts issued in one go land in one LMDB batch: one commit for the whole batch.
    const committed = records.length === 1 ? repo.put(records[0]) : Promise.all(records.map((r) => repo.put(r))).then(() => undefined);
    // Marked handled here; each run awaiting `committed` sees a failure.
    committed.catch(() => undefined);
    state.lastCommit = repo.changes ? counted(state, committed, records.length) : committed;
    for (const [op, message] of stored) op.reply({ ok: true, value: { message, committed } });
  }

  /**
   * A shared store's commit, added to the cache's change count (before anyone awaiting `lastCommit` looks: reactions
   * run in the order they were added). What it returns settles once this batch and every earlier one have: a shared
   * store may commit them out of order.
   */
  function counted(state: SessionState, committed: Promise<void>, appends: number): Promise<void> {
    committed.then(
      () => void (state.changes += appends),
      () => void (state.changes = NaN),
    );
    return Promise.allSettled([state.lastCommit, committed]).then(() => undefined);
  }

  /**
   * A batch with reloads, or (shared store) with reads: the ops before each reload, then the reload once those
   * writes are committed; before the batch's first read, the same, if the store counts changes this cache lacks.
   */
  async function handleWithChecks(state: SessionState, msg: SessionMsg, check: number): Promise<SessionState> {
    let current = state;
    let ops = msg.ops;
    try {
      while (check !== -1) {
        await handle(current, ops.slice(0, check));
        await current.lastCommit.catch(() => undefined);
        const reload = ops[check].type === 'reload';
        if (reload) current = await load(current.lastCommit);
        else if ((await repo.changes!(key.flowId, key.sessionId)) !== current.changes) current = await load(current.lastCommit, REREAD_MAX);
        // A read stays to be served; a reload is done.
        ops = ops.slice(reload ? check + 1 : check);
        check = ops.findIndex((op) => op.type === 'reload');
      }
      await handle(current, ops);
    } finally {
      msg.done();
    }
    return current;
  }

  /**
   * A streamed model reply arrives with the id its tokens already carried, and keeps it so the stream's
   * add_message events and the stored message agree; an id that is already stored gets a fresh one instead. The
   * cache answers for recent ids: the store is read only for a given id the cache does not hold.
   */
  function idFor(state: SessionState, message: MessageValue): string | Promise<string> {
    const given = message.id;
    if (!given || state.cache.some((m) => m.id === given)) return timeOrderedId();
    return repo.get(given).then((found) => (found ? timeOrderedId() : given));
  }

  /**
   * The recent messages asked for: from the cache when it holds enough, else read from the store: its newest `limit`
   * when no sender is asked for, else the whole history, filtered (the store has no cursor to page back with).
   */
  function recent(state: SessionState, op: Extract<SessionOp, { type: 'recent' }>): MessageValue[] | Promise<MessageValue[]> {
    const filtered = Boolean(op.sender || op.senderName);
    const matches = (m: MessageValue) => (!op.sender || m.sender === op.sender) && (!op.senderName || m.sender_name === op.senderName);
    const newest = (pool: MessageValue[]) => {
      const last = pool.slice(-op.limit);
      return op.newestFirst ? last.reverse() : last;
    };
    const pool = filtered ? state.cache.filter(matches) : state.cache;
    if (pool.length >= op.limit || state.complete) return newest(pool);
    if (filtered) return repo.session(key.flowId, key.sessionId, {}).then((records) => newest(records.map(fromRecord).filter(matches)));
    return repo.session(key.flowId, key.sessionId, { limit: op.limit, newestFirst: true }).then((records) => {
      const messages = records.map(fromRecord);
      return op.newestFirst ? messages : messages.reverse();
    });
  }
}
