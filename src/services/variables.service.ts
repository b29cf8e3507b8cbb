/**
 * Global variables of a user: Langflow's CRUD rules and messages; credentials sealed at rest and never returned;
 * `resolve` is what runs use for `load_from_db` fields.
 */
import { randomUUID } from 'node:crypto';
import type { VariableRecord } from '../../protocol/variable.schema.js';
import type { SecretBox } from '../auth/secret-box.js';
import { BadRequestError, NotFoundError } from '../errors/index.js';
import type { Store } from '../store/port.js';
import { nowIso } from './clock.js';
import { clashAnswered } from './name-clash.js';

const NAME_TAKEN = 'Variable name already exists';

export interface VariableView {
  id: string;
  name: string;
  type: 'Credential' | 'Generic';
  value: string | null;
  default_fields: string[];
}

export class VariablesService {
  constructor(
    private readonly store: Store,
    private readonly box: SecretBox,
  ) {}

  async create(userId: string, input: { name: string; value: string; type: 'Credential' | 'Generic'; default_fields: string[] }): Promise<VariableView> {
    const name = input.name.trim();
    if (!name && !input.value) throw new BadRequestError('Variable name and value cannot be empty');
    if (!name) throw new BadRequestError('Variable name cannot be empty');
    if (!input.value) throw new BadRequestError('Variable value cannot be empty');
    const now = nowIso();
    const record: VariableRecord = {
      id: randomUUID(),
      user_id: userId,
      name,
      type: input.type,
      value: this.sealed(input.type, input.value),
      default_fields: input.default_fields,
      created_at: now,
      updated_at: now,
    };
    await clashAnswered(this.store.variables.put(record), NAME_TAKEN);
    return this.view(record);
  }

  async list(userId: string): Promise<VariableView[]> {
    return (await this.store.variables.listByUser(userId))
      .sort((a, b) => a.created_at.localeCompare(b.created_at))
      .map((record) => this.view(record));
  }

  async update(userId: string, id: string, changes: { name?: string; value?: string; default_fields?: string[]; type?: 'Credential' | 'Generic' }): Promise<VariableView> {
    const current = await this.owned(userId, id);
    const type = changes.type ?? current.type;
    const plain = changes.value ?? this.plain(current);
    const next: VariableRecord = {
      ...current,
      name: changes.name?.trim() || current.name,
      type,
      value: this.sealed(type, plain),
      default_fields: changes.default_fields ?? current.default_fields,
      updated_at: nowIso(),
    };
    await clashAnswered(this.store.variables.put(next, current.name), NAME_TAKEN);
    return this.view(next);
  }

  async delete(userId: string, id: string): Promise<void> {
    await this.store.variables.delete(await this.owned(userId, id));
  }

  /** The plain value of the user's variable called `name`, for a run. */
  async resolve(userId: string, name: string): Promise<string | undefined> {
    const record = await this.store.variables.getByName(userId, name);
    return record ? this.plain(record) : undefined;
  }

  private async owned(userId: string, id: string): Promise<VariableRecord> {
    const record = await this.store.variables.get(id);
    if (!record || record.user_id !== userId) throw new NotFoundError('Variable not found');
    return record;
  }

  private sealed(type: VariableRecord['type'], plain: string): string {
    return type === 'Credential' ? this.box.seal(plain) : plain;
  }

  private plain(record: VariableRecord): string {
    return record.type === 'Credential' ? this.box.open(record.value) : record.value;
  }

  /** Credentials come back as null, Generic values as they are (Langflow's listing). */
  private view(record: VariableRecord): VariableView {
    return { id: record.id, name: record.name, type: record.type, value: record.type === 'Credential' ? null : record.value, default_fields: record.default_fields };
  }
}
