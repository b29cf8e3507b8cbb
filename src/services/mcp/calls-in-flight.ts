/**
 * The tool calls one MCP server is running, by JSON-RPC request id, so the edge can stop the calls of a request
 * whose client went away (the SDK only aborts a call on `notifications/cancelled` or when the whole server closes).
 */
type RequestId = string | number;

export class CallsInFlight {
  private readonly calls = new Map<RequestId, () => void>();

  /** Registers the way to stop a call; the returned function forgets it when the call ends. */
  add(id: RequestId, stop: () => void): () => void {
    this.calls.set(id, stop);
    return () => {
      if (this.calls.get(id) === stop) this.calls.delete(id);
    };
  }

  stop(id: RequestId): void {
    const stop = this.calls.get(id);
    this.calls.delete(id);
    stop?.();
  }

  get size(): number {
    return this.calls.size;
  }
}
