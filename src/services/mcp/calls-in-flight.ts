/**
 * The tool calls one MCP server is running, by JSON-RPC request id, so the edge can stop the calls of a request
 * whose client went away (the SDK only aborts a call on `notifications/cancelled` or when the whole server closes).
 */
type RequestId = string | number;

export class CallsInFlight {
  private readonly calls = new Map<RequestId, () => void>();
  private idleWaiters: (() => void)[] = [];

  /** Registers the way to stop a call; the returned function forgets it when the call ends. */
  add(id: RequestId, stop: () => void): () => void {
    this.calls.set(id, stop);
    return () => {
      if (this.calls.get(id) !== stop) return;
      this.calls.delete(id);
      this.wakeIfIdle();
    };
  }

  /** Resolves once no call is running (at once if none is). */
  whenIdle(): Promise<void> {
    if (this.calls.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  stop(id: RequestId): void {
    const stop = this.calls.get(id);
    this.calls.delete(id);
    stop?.();
    this.wakeIfIdle();
  }

  private wakeIfIdle(): void {
    if (this.calls.size > 0 || this.idleWaiters.length === 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }

  get size(): number {
    return this.calls.size;
  }
}
