/**
 * The storage port: one interface per aggregate. Services depend on these only; src/store/lmdb implements them
 * (a PostgreSQL implementation is the path to several machines). Nothing above this port imports lmdb.
 */
import type { ApiKeyRecord } from '../../protocol/api-key.schema.js';
import type { FlowRecord } from '../../protocol/flow.schema.js';
import type { ProjectRecord } from '../../protocol/project.schema.js';
import type { UserRecord } from '../../protocol/user.schema.js';

export interface UserRepo {
  get(id: string): UserRecord | undefined;
  getByUsername(username: string): UserRecord | undefined;
  list(): UserRecord[];
  /** Creates; false when the username is taken (checked atomically at commit). */
  insert(user: UserRecord): Promise<boolean>;
  /** Replaces; false when a rename collides with another user. */
  update(user: UserRecord): Promise<boolean>;
  delete(id: string): Promise<void>;
}

export interface ApiKeyRepo {
  get(id: string): ApiKeyRecord | undefined;
  getByHash(hash: string): ApiKeyRecord | undefined;
  listByUser(userId: string): ApiKeyRecord[];
  insert(key: ApiKeyRecord): Promise<void>;
  /** Adds usage counted in memory since the last flush (kept off the request path). */
  addUsage(id: string, uses: number, lastUsedAt: string): Promise<void>;
  delete(id: string): Promise<void>;
}

/** Outcome of a write guarded by per-user unique names. */
export type UniqueWrite = { ok: true } | { ok: false; clash: 'name' | 'endpoint_name' };

export interface FlowRepo {
  get(id: string): FlowRecord | undefined;
  getByEndpointName(userId: string | null, endpointName: string): FlowRecord | undefined;
  /** Flows owned by `userId` (null: the shared examples). */
  listByUser(userId: string | null): FlowRecord[];
  listByFolder(folderId: string): FlowRecord[];
  /** Names already used by a user, for `Name (n)` de-duplication. */
  namesOf(userId: string | null): string[];
  endpointNamesOf(userId: string | null): string[];
  /** Creates; refuses a name or endpoint name the owner already uses (checked atomically at commit). */
  insert(flow: FlowRecord): Promise<UniqueWrite>;
  /** Replaces `previous` with `flow`, moving the unique names when they change. */
  update(previous: FlowRecord, flow: FlowRecord): Promise<UniqueWrite>;
  delete(flow: FlowRecord): Promise<void>;
}

export interface ProjectRepo {
  get(id: string): ProjectRecord | undefined;
  listByUser(userId: string | null): ProjectRecord[];
  put(project: ProjectRecord): Promise<void>;
  delete(id: string): Promise<void>;
}

/** Small named values the service keeps for itself (the generated secret key, schema version). */
export interface SettingsRepo {
  get(name: string): string | undefined;
  put(name: string, value: string): Promise<void>;
}

export interface Store {
  users: UserRepo;
  apiKeys: ApiKeyRepo;
  flows: FlowRepo;
  projects: ProjectRepo;
  settings: SettingsRepo;
  /** Reads and writes for real; throws when the store is unusable (health checks). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
