/**
 * The MCP sessions this process holds (stateful Streamable HTTP and legacy SSE alike), by session id: a request
 * names its session, a flow change reaches its owner's sessions (`tools/list_changed`), an idle one goes after
 * `idleMs` without a request or an open stream, and every one closes at shutdown.
 */

export interface McpSession {
  readonly id: string;
  /** The scope the session was opened on (scopeKey): reaching it through another path is "not found". */
  readonly scopeKey: string;
  /** Whose flows its tools are. */
  readonly ownerId: string;
  /** Tells the client its tool list changed. */
  toolsChanged(): void;
  /** Resolves once none of its tool calls is running. */
  callsDone(): Promise<void>;
  close(): Promise<void>;
}

interface Held {
  session: McpSession;
  lastSeen: number;
  /** Streams open on it now (a legacy SSE stream, a Streamable GET stream, a POST reply under way). */
  streams: number;
}

const SWEEP_MS = 60_000;

export class McpSessions {
  private readonly held = new Map<string, Held>();
  private sweeper: NodeJS.Timeout | undefined;
  private draining = false;

  constructor(private readonly idleMs: number) {}

  add(session: McpSession): void {
    this.held.set(session.id, { session, lastSeen: Date.now(), streams: 0 });
    if (this.draining) this.closeWhenDone(session);
    this.sweeper ??= setInterval(() => this.sweep(), SWEEP_MS).unref();
  }

  /** The session, if it is held and was opened on this scope; marks it seen. */
  get(id: string, scopeKey: string): McpSession | undefined {
    const held = this.held.get(id);
    if (!held || held.session.scopeKey !== scopeKey) return undefined;
    held.lastSeen = Date.now();
    return held.session;
  }

  /** A stream opened on the session; the returned function says it closed. An idle sweep leaves it alone meanwhile. */
  streamOpened(id: string): () => void {
    const held = this.held.get(id);
    if (!held) return () => {};
    held.streams++;
    return () => {
      held.streams--;
      held.lastSeen = Date.now();
    };
  }

  remove(id: string): void {
    this.held.delete(id);
  }

  get size(): number {
    return this.held.size;
  }

  /** A flow of `ownerId` was created, renamed, enabled, disabled or deleted. */
  flowsChanged(ownerId: string): void {
    for (const { session } of this.held.values()) if (session.ownerId === ownerId) session.toolsChanged();
  }

  /**
   * A graceful stop: each session closes once its calls are done, which ends its open streams (a notification
   * stream would otherwise hold the edge's drain until the deadline); the calls under way still answer.
   */
  drain(): void {
    this.draining = true;
    for (const { session } of this.held.values()) this.closeWhenDone(session);
  }

  private closeWhenDone(session: McpSession): void {
    void session
      .callsDone()
      // A turn later: the last call's answer is sent after its handler (and its bookkeeping) returned.
      .then(() => new Promise((resolve) => setImmediate(resolve)))
      .then(() => {
        this.held.delete(session.id);
        return session.close();
      })
      .catch(() => undefined);
  }

  /** Closes every session opened on a scope (its auth rules changed). */
  async closeScope(scopeKey: string): Promise<void> {
    const closing: Promise<void>[] = [];
    for (const [id, held] of this.held) {
      if (held.session.scopeKey !== scopeKey) continue;
      this.held.delete(id);
      closing.push(held.session.close().catch(() => undefined));
    }
    await Promise.all(closing);
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    const sessions = [...this.held.values()].map((held) => held.session);
    this.held.clear();
    await Promise.all(sessions.map((session) => session.close().catch(() => undefined)));
  }

  private sweep(): void {
    const before = Date.now() - this.idleMs;
    for (const [id, held] of this.held) {
      if (held.streams > 0 || held.lastSeen > before) continue;
      this.held.delete(id);
      void held.session.close().catch(() => undefined);
    }
  }
}
