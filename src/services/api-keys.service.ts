/**
 * API keys: creation (plain key shown once), masked listing, revocation, and the per-request check.
 * The check is on every request's path, so it reads a memory cache and counts usage in memory; usage is
 * written to the store in one batch per second instead of one write per request.
 */
import { randomUUID } from 'node:crypto';
import type { ApiKeyRecord } from '../../protocol/api-key.schema.js';
import { generateApiKey, hashApiKey, maskApiKey } from '../auth/api-key-format.js';
import { NotFoundError } from '../errors/index.js';
import type { Store } from '../store/port.js';
import { nowIso } from './clock.js';

export interface ApiKeyView {
  id: string;
  name: string | null;
  api_key: string;
  user_id: string;
  created_at: string;
  last_used_at: string | null;
  total_uses: number;
  is_active: boolean;
}

const FLUSH_MS = 1000;

export class ApiKeysService {
  private readonly pending = new Map<string, number>();
  private readonly lastUsed = new Map<string, string>();
  private timer?: NodeJS.Timeout;

  constructor(private readonly store: Store) {}

  async create(userId: string, name: string | null | undefined): Promise<ApiKeyView> {
    const plain = generateApiKey();
    const record: ApiKeyRecord = {
      id: randomUUID(),
      name: name ?? null,
      user_id: userId,
      hash: hashApiKey(plain),
      prefix: plain.slice(0, 8),
      created_at: nowIso(),
      last_used_at: null,
      total_uses: 0,
      is_active: true,
    };
    await this.store.apiKeys.insert(record);
    return { ...this.view(record), api_key: plain };
  }

  async list(userId: string): Promise<ApiKeyView[]> {
    return (await this.store.apiKeys.listByUser(userId))
      .sort((a, b) => a.created_at.localeCompare(b.created_at))
      .map((record) => this.view(record));
  }

  /** Langflow answers 400 for a key that does not exist or is not the caller's. */
  async delete(userId: string, id: string): Promise<void> {
    const record = await this.store.apiKeys.get(id);
    // Another user's key is as absent as a missing one (a 404, never a hint that it exists).
    if (!record || record.user_id !== userId) throw new NotFoundError('API Key not found');
    this.pending.delete(id);
    await this.store.apiKeys.delete(id);
  }

  /** The key's record when it is valid; counts the use. */
  async check(plain: string): Promise<ApiKeyRecord | undefined> {
    const record = await this.store.apiKeys.getByHash(hashApiKey(plain));
    if (!record || !record.is_active) return undefined;
    this.pending.set(record.id, (this.pending.get(record.id) ?? 0) + 1);
    this.lastUsed.set(record.id, nowIso());
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS).unref();
    return record;
  }

  /** Writes counted usage to the store. */
  async flush(): Promise<void> {
    this.timer = undefined;
    const batch = [...this.pending];
    this.pending.clear();
    await Promise.all(batch.map(([id, uses]) => this.store.apiKeys.addUsage(id, uses, this.lastUsed.get(id) ?? nowIso())));
    this.lastUsed.clear();
  }

  private view(record: ApiKeyRecord): ApiKeyView {
    const uses = this.pending.get(record.id) ?? 0;
    return {
      id: record.id,
      name: record.name,
      api_key: maskApiKey(record.prefix),
      user_id: record.user_id,
      created_at: record.created_at,
      last_used_at: this.lastUsed.get(record.id) ?? record.last_used_at,
      total_uses: record.total_uses + uses,
      is_active: record.is_active,
    };
  }
}
