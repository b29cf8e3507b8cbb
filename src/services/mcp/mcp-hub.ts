/** What the MCP entry points share: which flows are tools, projects' MCP settings, and the sessions open here. */
import type { Store } from '../../store/port.js';
import type { FlowRunner } from '../flow-runner.js';
import type { FlowsService } from '../flows.service.js';
import type { ProjectsService } from '../projects.service.js';
import { McpCatalog } from './mcp-catalog.js';
import { McpProjectSettings } from './mcp-project-settings.js';
import { McpSessions } from './mcp-sessions.js';

/** A session nobody has used for this long (and with no stream open) is closed. */
const SESSION_IDLE_MS = 30 * 60_000;

export class McpHub {
  readonly catalog: McpCatalog;
  readonly sessions = new McpSessions(SESSION_IDLE_MS);
  readonly projectSettings: McpProjectSettings;

  constructor(store: Store, runner: Pick<FlowRunner, 'graphOf'>, projects: ProjectsService, flows: FlowsService) {
    this.catalog = new McpCatalog(store, runner);
    this.projectSettings = new McpProjectSettings(projects, flows, this.sessions);
  }

  /** A flow of `ownerId` was created, renamed, enabled, disabled or deleted: tools are read again, clients told. */
  flowsChanged(ownerId: string): void {
    this.catalog.forget(ownerId);
    this.sessions.flowsChanged(ownerId);
  }

  /** A graceful stop began: sessions close as their calls finish. */
  drain(): void {
    this.sessions.drain();
  }

  close(): Promise<void> {
    return this.sessions.closeAll();
  }
}
