/**
 * Session histories across instances: each instance's session actors cache the recent history of the sessions
 * they served (actors/session.actor.ts), so a message stored through another instance must reach that cache. Every
 * change here is told on the bus (once per session per turn of the event loop, however many messages were stored),
 * and a change told by another instance makes the session actor here, if it has one, reread the history.
 */
import type { EventBus } from './event-bus.port.js';

/** The session actors as this needs them (actors/session-pool.ts). */
export interface SessionCaches {
  onChanged?: (flowId: string, sessionId: string) => void;
  forget(flowId: string, sessionId: string, options: { elsewhere: boolean }): void;
}

const SEP = '\u0000';
const PREFIX = 'session';

/** Wires `sessions` to the bus; returns the unsubscribe. */
export function shareSessionChanges(sessions: SessionCaches, bus: EventBus, instanceId: string): () => void {
  let changed = new Set<string>();
  const tell = () => {
    const keys = changed;
    changed = new Set();
    for (const key of keys) bus.publish('invalidate', [PREFIX, instanceId, key].join(SEP));
  };
  sessions.onChanged = (flowId, sessionId) => {
    if (changed.size === 0) setImmediate(tell);
    changed.add(`${flowId}${SEP}${sessionId}`);
  };
  return bus.subscribe('invalidate', (payload) => {
    const [kind, from, flowId, sessionId] = payload.split(SEP);
    if (kind !== PREFIX || from === instanceId || flowId === undefined || sessionId === undefined) return;
    sessions.forget(flowId, sessionId, { elsewhere: true });
  });
}
