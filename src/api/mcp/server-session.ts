/** A session as the registry holds it: one SDK server for one client, whatever transport carries it. */
import type { McpSession } from '../../services/mcp/mcp-sessions.js';
import { scopeKey } from '../../services/mcp/mcp-scope.js';
import type { ScopedServer } from './mcp-server.js';

export class ServerSession<T> implements McpSession {
  readonly scopeKey: string;

  constructor(
    readonly id: string,
    readonly scoped: ScopedServer,
    readonly transport: T,
  ) {
    this.scopeKey = scopeKey(scoped.scope);
  }

  get ownerId(): string {
    return this.scoped.scope.ownerId;
  }

  toolsChanged(): void {
    void this.scoped.server.sendToolListChanged().catch(() => undefined);
  }

  callsDone(): Promise<void> {
    return this.scoped.calls.whenIdle();
  }

  close(): Promise<void> {
    return this.scoped.server.close();
  }
}
