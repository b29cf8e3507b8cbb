/**
 * Projects (Langflow folders): every user has a default one, where flows without a folder land. Projects only
 * hold flows by reference (`flow.folder_id`); moving flows between them is a store-level reassignment.
 */
import { randomUUID } from 'node:crypto';
import type { FlowRecord } from '../../protocol/flow.schema.js';
import type { ProjectRecord } from '../../protocol/project.schema.js';
import { NotFoundError } from '../errors/index.js';
import { NameTakenError } from '../store/name-taken.error.js';
import type { Store } from '../store/port.js';
import { nowIso } from './clock.js';
import { clashAnswered } from './name-clash.js';
import { byCreation, paginate, type Page } from './paginate.js';
import { projectRenamer } from './unique-names.js';

export const DEFAULT_PROJECT_NAME = 'Starter Project';
export const DEFAULT_PROJECT_DESCRIPTION = 'Manage your own projects. Download and upload projects.';
const NAME_TAKEN = 'Project name must be unique';

export interface NewProject {
  name: string;
  description?: string | null;
  auth_settings?: Record<string, unknown> | null;
  parent_id?: string | null;
}

export interface ProjectChanges {
  name?: string | null;
  description?: string | null;
  parent_id?: string | null;
  auth_settings?: Record<string, unknown> | null;
  /** When given (either list), the complete membership: listed flows move in, the others go to the default project. */
  flows?: string[];
  components?: string[];
}

export interface ProjectFlowsQuery {
  page: number;
  size: number;
  isComponent?: boolean;
  isFlow?: boolean;
  /** Case-insensitive part of the name. */
  search?: string;
}

export interface ProjectsOptions {
  /** Without auto-login Langflow protects a new project's MCP server with API keys unless told otherwise. */
  autoLogin: boolean;
}

export class ProjectsService {
  /** Deletes the flows of a project being deleted; the app points it at FlowsService so flow clean-up runs too. */
  removeFlows: (flows: FlowRecord[]) => Promise<void> = async (flows) => {
    for (const flow of flows) await this.store.flows.delete(flow);
  };

  constructor(
    private readonly store: Store,
    private readonly options: ProjectsOptions = { autoLogin: true },
  ) {}

  /** The user's default project, created on first need (concurrent callers get the same one). */
  async ensureDefault(userId: string): Promise<ProjectRecord> {
    const existing = await this.store.projects.getByName(userId, DEFAULT_PROJECT_NAME);
    if (existing) return existing;
    try {
      return await this.store.projects.insert(this.newRecord(userId, { name: DEFAULT_PROJECT_NAME, description: DEFAULT_PROJECT_DESCRIPTION }));
    } catch (error) {
      // A concurrent caller created it first: theirs is the one.
      if (!(error instanceof NameTakenError)) throw error;
      return (await this.store.projects.getByName(userId, DEFAULT_PROJECT_NAME))!;
    }
  }

  /** Own projects, the default one first, then in creation order. */
  async list(userId: string): Promise<ProjectRecord[]> {
    return (await this.store.projects.listByUser(userId))
      .sort(byCreation)
      .sort((a, b) => Number(b.name === DEFAULT_PROJECT_NAME) - Number(a.name === DEFAULT_PROJECT_NAME));
  }

  /** A project of the user; anyone else's is "not found". */
  async owned(userId: string, projectId: string): Promise<ProjectRecord> {
    const project = await this.store.projects.get(projectId);
    if (!project || project.user_id !== userId) throw new NotFoundError('Project not found');
    return project;
  }

  /**
   * Where a new flow goes: the named project when it is the user's; the default one when none is named or the named
   * one does not exist here (an export carries its origin's folder id). Another user's project is refused (404).
   */
  async folderFor(userId: string, folderId: string | null | undefined): Promise<string> {
    const project = folderId ? await this.store.projects.get(folderId) : undefined;
    if (project && project.user_id === userId) return project.id;
    if (project) throw new NotFoundError('Project not found');
    return (await this.ensureDefault(userId)).id;
  }

  /** Creates with a de-duplicated name (`X (n)`) and moves the listed flows of the user into it. */
  async create(userId: string, input: NewProject, flowIds: string[] = []): Promise<ProjectRecord> {
    // A parent must be the user's own project: another user's is "not found", never stored.
    if (input.parent_id) await this.owned(userId, input.parent_id);
    const project = await clashAnswered(this.store.projects.insert(this.newRecord(userId, input), projectRenamer), NAME_TAKEN);
    if (flowIds.length > 0) await this.store.flows.moveToFolder(userId, flowIds, project.id);
    return project;
  }

  /** Langflow's PATCH: a new name only renames; otherwise fields are updated and membership reassigned when given. */
  async update(userId: string, projectId: string, changes: ProjectChanges): Promise<ProjectRecord> {
    const current = await this.owned(userId, projectId);
    const next: ProjectRecord = { ...current };
    const renaming = !!changes.name && changes.name !== current.name;
    if (renaming) next.name = changes.name!;
    if (changes.description != null) next.description = changes.description;
    if (changes.parent_id != null) next.parent_id = (await this.owned(userId, changes.parent_id)).id;
    if (changes.auth_settings !== undefined) next.auth_settings = changes.auth_settings;
    await clashAnswered(this.store.projects.update(next), NAME_TAKEN);
    if (!renaming && (changes.flows !== undefined || changes.components !== undefined)) {
      await this.reassign(userId, next, [...(changes.flows ?? []), ...(changes.components ?? [])]);
    }
    return next;
  }

  /** Deletes the project and the flows in it. */
  async delete(userId: string, projectId: string): Promise<void> {
    const project = await this.owned(userId, projectId);
    await this.removeFlows(await this.flowsIn(project));
    await this.store.projects.delete(project.id);
  }

  /** The user's flows in a project. */
  async flowsIn(project: ProjectRecord): Promise<FlowRecord[]> {
    return (await this.store.flows.listByFolder(project.id))
      .filter((flow) => flow.user_id === project.user_id)
      .sort(byCreation);
  }

  /** A page of a project's flows, newest update first (Langflow's order for this view), optionally filtered. */
  async pageOfFlows(project: ProjectRecord, query: ProjectFlowsQuery): Promise<Page<FlowRecord>> {
    const search = query.search?.toLowerCase();
    const flows = (await this.flowsIn(project)).filter(
      (flow) =>
        (!query.isComponent || flow.is_component) &&
        (!query.isFlow || !flow.is_component) &&
        (!search || flow.name.toLowerCase().includes(search)),
    );
    flows.sort((a, b) => (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : 0));
    return paginate(flows, query.page, query.size);
  }

  private async reassign(userId: string, project: ProjectRecord, members: string[]): Promise<void> {
    const keep = new Set(members);
    const leaving = (await this.flowsIn(project)).filter((flow) => !keep.has(flow.id)).map((flow) => flow.id);
    if (leaving.length > 0) {
      const fallback = await this.ensureDefault(userId);
      // Leaving the default project itself has nowhere else to go: those flows stay.
      if (fallback.id !== project.id) await this.store.flows.moveToFolder(userId, leaving, fallback.id);
    }
    if (members.length > 0) await this.store.flows.moveToFolder(userId, members, project.id);
  }

  private newRecord(userId: string, input: NewProject): ProjectRecord {
    const authSettings = input.auth_settings ?? (this.options.autoLogin ? null : { auth_type: 'apikey' });
    return {
      id: randomUUID(),
      name: input.name,
      description: input.description ?? null,
      auth_settings: authSettings,
      parent_id: input.parent_id ?? null,
      user_id: userId,
      created_at: nowIso(),
    };
  }
}
