/** What the MCP entry points share: which flows are tools, and the sessions open on this process. */
import type { Store } from '../../store/port.js';
import type { FlowRunner } from '../flow-runner.js';
import { McpCatalog } from './mcp-catalog.js';
import { McpSessions } from './mcp-sessions.js';

/** A session nobody has used for this long (and with no stream open) is closed. */
const SESSION_IDLE_MS = 30 * 60_000;

export class McpHub {
  readonly catalog: McpCatalog;
  readonly sessions = new McpSessions(SESSION_IDLE_MS);

  constructor(store: Store, runner: Pick<FlowRunner, 'graphOf'>) {
    this.catalog = new McpCatalog(store, runner);
  }

  close(): Promise<void> {
    return this.sessions.closeAll();
  }
}
