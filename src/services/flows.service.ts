/**
 * Flows: Langflow's create/read/update/delete rules. A flow is stored whatever its graph holds (unknown component
 * types, dangling edges): whether it can run is decided when it runs, not here.
 */
import type { FlowCreate, FlowRecord, FlowUpdate } from '../../protocol/flow.schema.js';
import type { ExampleFlows } from '../examples/index.js';
import { ForbiddenError, NotFoundError } from '../errors/index.js';
import { NameTakenError } from '../store/name-taken.error.js';
import type { Store } from '../store/port.js';
import { timeOrderedId } from '../ids/time-ordered-id.js';
import { nowIso } from './clock.js';
import { hasWebhookNode, withoutSecrets } from './flow-data.js';
import { clashAnswer, clashAnswered } from './name-clash.js';
import { byCreation, paginate, type Page } from './paginate.js';
import type { ProjectsService } from './projects.service.js';
import { flowRenamer } from './unique-names.js';

export interface FlowsOptions {
  /** Langflow's AUTO_LOGIN: owner-less flows (our examples) are visible to every user. */
  shareExamples: boolean;
}

export interface FlowFilter {
  removeExamples?: boolean;
  componentsOnly?: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const CLASH_MESSAGES = { name: 'Name must be unique', endpoint_name: 'Endpoint name must be unique' } as const;

/** FlowUpdate fields copied as they are when not null (Langflow drops unset and null values). */
const PLAIN_UPDATES = [
  'name', 'description', 'data', 'mcp_enabled', 'locked', 'action_name', 'action_description',
  'access_type', 'fs_path', 'icon', 'icon_bg_color', 'gradient', 'tags',
] as const;

export class FlowsService {
  /** Called after flows are deleted, so whatever hangs off them (messages, builds, files) can go too. */
  onDeleted: (flows: FlowRecord[]) => Promise<void> = async () => {};
  /** Called after a flow changes, so caches built from it (run graphs) are dropped. */
  onUpdated: (flow: FlowRecord) => void = () => {};
  /** Called (and awaited) as a flow is created (with the insert, in its commit) or after it changed, so its data's version is recorded. */
  onSaved: (flow: FlowRecord) => Promise<void> = async () => {};

  constructor(
    private readonly store: Store,
    private readonly projects: ProjectsService,
    private readonly examples: ExampleFlows,
    private readonly options: FlowsOptions,
  ) {}

  /**
   * Creates a flow of `userId`: a taken name becomes `Name (n)`, a taken endpoint name `ep-n`; the folder is
   * `folderId`, else the input's, when the user owns it, else the default project. `data` is stored as given.
   */
  async create(userId: string, input: FlowCreate, folderId?: string): Promise<FlowRecord> {
    return this.insert(await this.newRecord(userId, input, folderId));
  }

  /**
   * Creates the flows as one LMDB batch: one commit to wait for, not one per flow. The inserts are issued in input
   * order and LMDB runs a batch's transactions one after the other, each seeing those before it, so names
   * de-duplicated within the batch come out in input order. When one fails, the others are deleted again: the
   * batch lands whole or not at all, as Langflow's single commit does.
   */
  async createMany(userId: string, inputs: FlowCreate[], folderId?: string): Promise<FlowRecord[]> {
    const records: FlowRecord[] = [];
    for (const input of inputs) records.push(await this.newRecord(userId, input, folderId));
    const results = await Promise.allSettled(records.map((flow) => this.insert(flow)));
    const failure = results.find((result) => result.status === 'rejected');
    if (!failure) return results.map((result) => (result as PromiseFulfilledResult<FlowRecord>).value);
    await this.removeAll(results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : [])));
    throw failure.reason;
  }

  private async newRecord(userId: string, input: FlowCreate, folderId?: string): Promise<FlowRecord> {
    const now = nowIso();
    const data = input.data ?? null;
    return {
      id: timeOrderedId(),
      name: input.name,
      description: input.description ?? null,
      icon: input.icon ?? null,
      icon_bg_color: input.icon_bg_color ?? null,
      gradient: input.gradient ?? null,
      data,
      is_component: input.is_component ?? false,
      updated_at: now,
      created_at: now,
      webhook: hasWebhookNode(data),
      endpoint_name: input.endpoint_name ?? null,
      tags: input.tags === undefined ? [] : input.tags,
      locked: input.locked ?? false,
      mcp_enabled: input.mcp_enabled ?? false,
      action_name: input.action_name ?? null,
      action_description: input.action_description ?? null,
      access_type: input.access_type ?? 'PRIVATE',
      user_id: userId,
      folder_id: await this.projects.folderFor(userId, folderId ?? input.folder_id),
      fs_path: input.fs_path ?? null,
    };
  }

  private async insert(flow: FlowRecord): Promise<FlowRecord> {
    const inserted = this.store.flows.insert(flow, flowRenamer);
    // Issued in the same tick as the insert, so both land in one commit (one wait instead of two in a row). A
    // version depends on the id and data alone, which a rename keeps. Both are waited for, whichever fails.
    const saved = this.onSaved(flow);
    const [result, version] = await Promise.allSettled([inserted, saved]);
    if (result.status === 'rejected') {
      // Only a clash the renamer could not resolve is a clash here; the version recorded for it goes with it.
      if (result.reason instanceof NameTakenError) await this.onDeleted([flow]);
      throw clashAnswer(result.reason, CLASH_MESSAGES);
    }
    if (version.status === 'rejected') throw version.reason;
    return result.value;
  }

  /** Every flow the user sees: their own, plus the examples when shared, in creation order. */
  async list(userId: string, filter: FlowFilter = {}): Promise<FlowRecord[]> {
    let flows = (await this.store.flows.listByUser(userId)).sort(byCreation);
    if (this.options.shareExamples && !filter.removeExamples) flows = [...flows, ...this.examples.all()];
    return filter.componentsOnly ? flows.filter((flow) => flow.is_component) : flows;
  }

  /** A page of the flows in one folder (the default project when none is named). */
  async page(userId: string, folderId: string | undefined, page: number, size: number, filter: FlowFilter = {}): Promise<Page<FlowRecord>> {
    const folder = folderId ?? (await this.projects.ensureDefault(userId)).id;
    return paginate((await this.list(userId, filter)).filter((flow) => flow.folder_id === folder), page, size);
  }

  /** A flow the user may read: their own, or a shared example. Anything else is "not found". */
  async readable(userId: string, flowId: string): Promise<FlowRecord> {
    const flow = await this.store.flows.get(flowId);
    if (flow && flow.user_id === userId) return flow;
    const example = this.options.shareExamples ? this.examples.get(flowId) : undefined;
    if (example) return example;
    throw new NotFoundError('Flow not found');
  }

  /**
   * The flow a run names: a UUID is looked up by id, anything else by the user's endpoint names (Langflow's rule;
   * both owner-scoped, so another user's flow is "not found").
   */
  runnable(userId: string, idOrName: string): Promise<FlowRecord> {
    // Promise chains rather than async functions on the run path: no suspended frame per request.
    return this.findRunnable(userId, idOrName).then((flow) => {
      if (!flow) throw new NotFoundError(`Flow identifier ${idOrName} not found`);
      return flow;
    });
  }

  /**
   * `runnable` without the error: undefined when the user has no such flow. Runs only read the record, so it comes
   * from the store's shared copies (never change it).
   */
  findRunnable(userId: string, idOrName: string): Promise<FlowRecord | undefined> {
    if (!UUID.test(idOrName)) return this.store.flows.getSharedByEndpointName(userId, idOrName);
    const id = idOrName.toLowerCase();
    return this.store.flows.getShared(id).then((flow) => {
      if (flow && flow.user_id === userId) return flow;
      return this.options.shareExamples ? this.examples.get(id) : undefined;
    });
  }

  /** The flow a webhook names when webhook auth is off: any owner's, by id or endpoint name. */
  async anyOwner(idOrName: string): Promise<FlowRecord> {
    const flow = await this.findAnyOwner(idOrName);
    if (!flow) throw new NotFoundError('Flow not found');
    return flow;
  }

  /** Any user's flow by id or endpoint name (examples excluded: they have no owner to run as); shared, as `findRunnable`. */
  async findAnyOwner(idOrName: string): Promise<FlowRecord | undefined> {
    const flow = UUID.test(idOrName) ? await this.store.flows.getShared(idOrName.toLowerCase()) : await this.byAnyEndpointName(idOrName);
    return flow && flow.user_id !== null ? flow : undefined;
  }

  /** The first user's (in the store's order) flow of that endpoint name. */
  private async byAnyEndpointName(endpointName: string): Promise<FlowRecord | undefined> {
    for (const user of await this.store.users.list()) {
      const flow = await this.store.flows.getSharedByEndpointName(user.id, endpointName);
      if (flow) return flow;
    }
    return undefined;
  }

  /** A flow the user may change: only their own (examples are read-only). */
  async owned(userId: string, flowId: string): Promise<FlowRecord> {
    const flow = await this.store.flows.get(flowId);
    if (!flow || flow.user_id !== userId) throw new NotFoundError('Flow not found');
    return flow;
  }

  /** Langflow's PATCH: null and absent fields keep their value, except endpoint_name (null or "" clears it). */
  async update(userId: string, flowId: string, changes: FlowUpdate): Promise<FlowRecord> {
    const current = await this.owned(userId, flowId);
    const next: FlowRecord = { ...current };
    const target = next as Record<(typeof PLAIN_UPDATES)[number], unknown>;
    for (const key of PLAIN_UPDATES) if (changes[key] != null) target[key] = changes[key];
    if (changes.endpoint_name !== undefined) next.endpoint_name = changes.endpoint_name || null;
    if (changes.folder_id != null) next.folder_id = (await this.projects.owned(userId, changes.folder_id)).id;
    next.webhook = hasWebhookNode(next.data);
    next.updated_at = nowIso();
    await clashAnswered(this.store.flows.update(current, next), CLASH_MESSAGES);
    this.onUpdated(next);
    if (changes.data != null) await this.onSaved(next);
    return next;
  }

  async delete(userId: string, flowId: string): Promise<void> {
    await this.removeAll([await this.owned(userId, flowId)]);
  }

  /** Deletes the listed flows the user owns (others are skipped); returns how many went. */
  async deleteMany(userId: string, flowIds: string[]): Promise<number> {
    const flows = await this.ownedAmong(userId, flowIds);
    await this.removeAll(flows);
    return flows.length;
  }

  /** The one path by which flows are deleted; the deletes are issued together, so they share one commit. */
  async removeAll(flows: FlowRecord[]): Promise<void> {
    await Promise.all(flows.map((flow) => this.store.flows.delete(flow)));
    if (flows.length > 0) await this.onDeleted(flows);
  }

  /** The user's listed flows as exported: secrets left out. */
  async exportable(userId: string, flowIds: string[]): Promise<FlowRecord[]> {
    const flows = await this.ownedAmong(userId, flowIds);
    if (flows.length === 0) throw new NotFoundError('No flows found.');
    return flows.map(withoutSecrets);
  }

  /** A flow shared with anyone who has its id (access_type PUBLIC), secrets left out. */
  async publicFlow(flowId: string): Promise<FlowRecord> {
    const flow = await this.store.flows.get(flowId);
    if (!flow || flow.access_type !== 'PUBLIC') throw new ForbiddenError('Flow is not public');
    return withoutSecrets(flow);
  }

  private async ownedAmong(userId: string, flowIds: string[]): Promise<FlowRecord[]> {
    return (await Promise.all([...new Set(flowIds)].map((id) => this.store.flows.get(id))))
      .filter((flow): flow is FlowRecord => flow !== undefined && flow.user_id === userId)
      .sort(byCreation);
  }
}
