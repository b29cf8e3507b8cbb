/**
 * The storage port: one interface per aggregate. Services depend on these only; src/store/lmdb and src/store/pg
 * implement them. Every method returns a promise, reads too, so an implementation that reads over a network
 * (PostgreSQL, for several machines) fits the same interface without changing a caller; LMDB answers its reads at
 * once (a resolved promise). A write that would take a unique name already in use rejects with NameTakenError, in
 * every implementation. Nothing above this port imports lmdb or pg; test/support/store-contract.ts is what an
 * implementation is checked by.
 */
import type { JobLeaseRepo, LeaseFence } from './job-leases.port.js';
import type { ApiKeyRecord } from '../../protocol/api-key.schema.js';
import type { FlowRecord } from '../../protocol/flow.schema.js';
import type { FileRecord } from '../../protocol/file.schema.js';
import type { JobEvent, JobRecord } from '../../protocol/job.schema.js';
import type { MessageRecord } from '../../protocol/message.schema.js';
import type { ProjectRecord } from '../../protocol/project.schema.js';
import type { StoredResponse } from '../../protocol/responses.schema.js';
import type { UserRecord } from '../../protocol/user.schema.js';
import type { VariableRecord } from '../../protocol/variable.schema.js';
import type { RunRecordRepo, VertexBuildRepo } from './run-records.port.js';
import type { KnowledgeRepo } from './knowledge.port.js';

export type { PreparedTrace, RunRecordRepo, TraceIndexEntry, TraceSource, VertexBuildRepo } from './run-records.port.js';

export interface UserRepo {
  get(id: string): Promise<UserRecord | undefined>;
  /** `get` for the per-request auth check: the record is shared between callers (never change it) until written. */
  getShared(id: string): Promise<UserRecord | undefined>;
  getByUsername(username: string): Promise<UserRecord | undefined>;
  list(): Promise<UserRecord[]>;
  /** Creates; rejects with NameTakenError (`username`) when the username is taken (checked atomically at commit). */
  insert(user: UserRecord): Promise<void>;
  /** Replaces; rejects with NameTakenError (`username`) when a rename collides with another user. */
  update(user: UserRecord): Promise<void>;
  delete(id: string): Promise<void>;
}

export interface ApiKeyRepo {
  get(id: string): Promise<ApiKeyRecord | undefined>;
  getByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  listByUser(userId: string): Promise<ApiKeyRecord[]>;
  insert(key: ApiKeyRecord): Promise<void>;
  /** Adds usage counted in memory since the last flush (kept off the request path). */
  addUsage(id: string, uses: number, lastUsedAt: string): Promise<void>;
  delete(id: string): Promise<void>;
}

/**
 * Picks a free name when the wanted one is taken, given the owner's names that extend it (`Name (` or `ep-`).
 * The repo calls it inside the write, so concurrent creates of one name all end up with distinct names.
 */
export interface FlowRenamer {
  name(wanted: string, similar: string[]): string;
  endpointName(wanted: string, similar: string[]): string;
}

export interface FlowRepo {
  get(id: string): Promise<FlowRecord | undefined>;
  getByEndpointName(userId: string | null, endpointName: string): Promise<FlowRecord | undefined>;
  /**
   * `get` and `getByEndpointName` for the run path, where decoding a Langflow flow on every request would cost
   * more than the run: the record is shared between callers (never change it) until the flow is written.
   */
  getShared(id: string): Promise<FlowRecord | undefined>;
  getSharedByEndpointName(userId: string | null, endpointName: string): Promise<FlowRecord | undefined>;
  /** Flows owned by `userId` (null: owner-less flows). */
  listByUser(userId: string | null): Promise<FlowRecord[]>;
  listByFolder(folderId: string): Promise<FlowRecord[]>;
  /** Every stored flow's id, whoever owns it (work over all flows reads them one at a time, not all at once). */
  ids(): Promise<string[]>;
  /** Names already used by a user, for `Name (n)` de-duplication. */
  namesOf(userId: string | null): Promise<string[]>;
  endpointNamesOf(userId: string | null): Promise<string[]>;
  /**
   * Creates; resolves to the flow as stored. A name or endpoint name the owner already uses is renamed with
   * `renamer` inside the write transaction, or refused (NameTakenError, `name` or `endpoint_name`) without one.
   */
  insert(flow: FlowRecord, renamer?: FlowRenamer): Promise<FlowRecord>;
  /**
   * Replaces `previous` with `flow`, moving the unique names when they change; rejects with NameTakenError when
   * another flow of the owner holds the new name or endpoint name.
   */
  update(previous: FlowRecord, flow: FlowRecord): Promise<void>;
  /** Moves the listed flows of `userId` into `folderId` in one transaction; returns how many moved. */
  moveToFolder(userId: string, flowIds: string[], folderId: string): Promise<number>;
  delete(flow: FlowRecord): Promise<void>;
}

/** Picks a free project name when the wanted one is taken, given the owner's names that start with it. */
export type ProjectRenamer = (wanted: string, similar: string[]) => string;

export interface ProjectRepo {
  get(id: string): Promise<ProjectRecord | undefined>;
  getByName(userId: string | null, name: string): Promise<ProjectRecord | undefined>;
  listByUser(userId: string | null): Promise<ProjectRecord[]>;
  /**
   * Creates; resolves to the project as stored. A taken name is renamed inside the write with `renamer`, or refused
   * (NameTakenError, `name`) without one.
   */
  insert(project: ProjectRecord, renamer?: ProjectRenamer): Promise<ProjectRecord>;
  /** Replaces; rejects with NameTakenError (`name`) when a rename collides with another project of the owner. */
  update(project: ProjectRecord): Promise<void>;
  delete(id: string): Promise<void>;
}

export interface MessageRepo {
  /** Creates, or replaces the message of the same id, flow, session and `seq` (an edit). */
  put(message: MessageRecord): Promise<void>;
  get(id: string): Promise<MessageRecord | undefined>;
  /** One session's history in `seq` order, the order it was stored in (or newest first), at most `limit` messages. */
  session(flowId: string | null, sessionId: string, options: { limit?: number; newestFirst?: boolean }): Promise<MessageRecord[]>;
  /** Every message of a flow (null: of no flow; undefined: of all flows), by flow, then session, then `seq`. */
  scan(flowId?: string | null): Promise<MessageRecord[]>;
  delete(message: MessageRecord): Promise<void>;
  /**
   * How many times a session's history has changed (appends, edits, deletes), as the store counts them. Only a store
   * that several instances share has it: a session actor compares it with its own count before serving a history
   * read, so another instance's writes are in the next read after they commit.
   */
  changes?(flowId: string | null, sessionId: string): Promise<number>;
}

/** v2 files' records (their bytes are the file storage's), by id and by owner. */
export interface FileRepo {
  get(id: string): Promise<FileRecord | undefined>;
  listByUser(userId: string): Promise<FileRecord[]>;
  /** Creates or replaces. */
  put(file: FileRecord): Promise<void>;
  delete(file: FileRecord): Promise<void>;
}

export interface VariableRepo {
  get(id: string): Promise<VariableRecord | undefined>;
  getByName(userId: string, name: string): Promise<VariableRecord | undefined>;
  listByUser(userId: string): Promise<VariableRecord[]>;
  /**
   * Creates or replaces (`previousName`: the name it is stored under when renamed); rejects with NameTakenError
   * (`name`) when the user already has another variable of that name (checked at commit).
   */
  put(variable: VariableRecord, previousName?: string): Promise<void>;
  delete(variable: VariableRecord): Promise<void>;
}

/** One stored version of a flow's data, keyed by its content hash. */
export interface FlowVersion {
  flowId: string;
  hash: string;
  data: unknown;
  createdAt: string;
}

export interface FlowVersionRepo {
  get(flowId: string, hash: string): Promise<FlowVersion | undefined>;
  /** Every version of a flow, oldest first. */
  list(flowId: string): Promise<FlowVersion[]>;
  /** Keeps the version unless that hash is already stored (a flow changed back keeps its first date). */
  record(version: FlowVersion): Promise<void>;
  deleteAll(flowId: string): Promise<void>;
}

/** A finished job as stored: its terminal record and its log, with their JSON text (the service encodes parts once). */
export interface FinishedJob {
  record: JobRecord;
  /** `JSON.stringify(record)`, up to key order. */
  recordJson: string;
  /** `JSON.stringify(events)` of the job's log. */
  logJson: string;
  /** When retention may remove the log (epoch ms). */
  expiresAt: number;
}

/**
 * v2 workflow jobs. Writes are plain puts issued together (in LMDB one commit shared with every other write of that
 * moment), never a transaction per job: thousands of jobs finish per second.
 */
export interface JobRepo {
  get(id: string): Promise<JobRecord | undefined>;
  /** Creates or replaces; keeps the index of unfinished jobs in step. */
  put(job: JobRecord): Promise<void>;
  /** Jobs that were queued or in progress when last written (restart recovery reads these). */
  unfinished(): Promise<JobRecord[]>;
  /** The finished job's event log; undefined once retention removed it. */
  events(id: string): Promise<JobEvent[] | undefined>;
  /**
   * Stores a finished job's terminal record and its log in one commit, dropping it from the unfinished index.
   * Where jobs are leased (PostgreSQL), `fence` ends the writer's lease in that same commit, and a finished record
   * is final: resolves false, having written nothing, when the lease is no longer the writer's or the job had
   * already ended. The embedded store has one writer per job and always writes.
   */
  putFinished(job: FinishedJob, fence?: LeaseFence): Promise<boolean>;
  /** Removes the logs that expired before `now`; returns how many. */
  expireEvents(now: number): Promise<number>;
}

/** Responses of /api/v1/responses by id: a later `previous_response_id` finds its session here, after restarts too. */
export interface ResponseRepo {
  get(id: string): Promise<StoredResponse | undefined>;
  /** Not a transaction of its own: puts of the same moment share one commit. Keeps the in-progress index in step. */
  put(record: StoredResponse): Promise<void>;
  /** Background responses still `in_progress` when last written (a restart cut them off). */
  unfinished(): Promise<StoredResponse[]>;
}

/** Small named values the service keeps for itself (the generated secret key, schema version). */
export interface SettingsRepo {
  get(name: string): Promise<string | undefined>;
  put(name: string, value: string): Promise<void>;
  /**
   * Stores `value` unless `name` has one; resolves to the value stored, the first writer's (instances starting
   * together on one database all end up with one generated secret key).
   */
  putIfAbsent(name: string, value: string): Promise<string>;
}

export interface Store {
  users: UserRepo;
  apiKeys: ApiKeyRepo;
  flows: FlowRepo;
  projects: ProjectRepo;
  messages: MessageRepo;
  variables: VariableRepo;
  files: FileRepo;
  flowVersions: FlowVersionRepo;
  jobs: JobRepo;
  responses: ResponseRepo;
  vertexBuilds: VertexBuildRepo;
  runRecords: RunRecordRepo;
  settings: SettingsRepo;
  /** Knowledge bases, their ingestions and chunks (src/store/knowledge.port.ts). */
  knowledge: KnowledgeRepo;
  /** The shared job queue: only where instances share the store (PostgreSQL). */
  leases?: JobLeaseRepo;
  /**
   * Whether no other process was using the store when this one opened it: the runs it holds unfinished were then
   * left by stopped processes, and start-up recovery is this process's to do (with other instances alive they may be
   * theirs). Always true for the embedded store.
   */
  openedAlone(): Promise<boolean>;
  /** Reads and writes for real; throws when the store is unusable (health checks). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
