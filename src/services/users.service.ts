/** Users: the first superuser, CRUD with Langflow's rules, password checks. */
import { randomBytes, randomUUID } from 'node:crypto';
import type { UserRecord } from '../../protocol/user.schema.js';
import { hashPassword, verifyPassword } from '../auth/password.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../errors/index.js';
import type { Store } from '../store/port.js';
import { nowIso } from './clock.js';
import { clashAnswered } from './name-clash.js';

const USERNAME_TAKEN = 'This username is unavailable.';

export const DEFAULT_OPTINS = { github_starred: false, dialog_dismissed: false, discord_clicked: false };

export interface NewUser {
  username: string;
  password: string;
  isSuperuser?: boolean;
  isActive?: boolean;
  optins?: Record<string, unknown>;
}

export class UsersService {
  /** Called after a user is created, so its default project exists (wired by the app). */
  onCreated: (user: UserRecord) => Promise<void> = async () => {};
  /** Called after a user is deleted, so what it owned goes too (wired by the app). */
  onDeleted: (userId: string) => Promise<void> = async () => {};

  constructor(private readonly store: Store) {}

  /**
   * Makes sure the configured superuser exists. Returns the generated password when one had to be made
   * (printed once by the caller); an existing superuser is left as it is.
   */
  async ensureSuperuser(username: string, password: string | undefined): Promise<{ user: UserRecord; generatedPassword?: string }> {
    const existing = await this.store.users.getByUsername(username);
    if (existing) return { user: existing };
    const generatedPassword = password ? undefined : randomBytes(12).toString('base64url');
    try {
      const user = await this.create({ username, password: password ?? generatedPassword!, isSuperuser: true });
      return { user, generatedPassword };
    } catch (error) {
      // Another instance on the same database created it first: theirs is the one.
      const created = await this.store.users.getByUsername(username);
      if (created) return { user: created };
      throw error;
    }
  }

  async create(input: NewUser): Promise<UserRecord> {
    const now = nowIso();
    const user: UserRecord = {
      id: randomUUID(),
      username: input.username,
      password_hash: await hashPassword(input.password),
      profile_image: null,
      store_api_key: null,
      is_active: input.isActive ?? true,
      is_superuser: input.isSuperuser ?? false,
      create_at: now,
      updated_at: now,
      last_login_at: null,
      optins: { ...DEFAULT_OPTINS, ...input.optins },
    };
    await clashAnswered(this.store.users.insert(user), USERNAME_TAKEN);
    await this.onCreated(user);
    return user;
  }

  async get(id: string): Promise<UserRecord> {
    const user = await this.store.users.get(id);
    if (!user) throw new NotFoundError('User not found');
    return user;
  }

  async list(): Promise<UserRecord[]> {
    return (await this.store.users.list()).sort((a, b) => a.create_at.localeCompare(b.create_at));
  }

  /** The user when the password matches and the account is active. */
  async checkPassword(username: string, password: string): Promise<UserRecord | undefined> {
    const user = await this.store.users.getByUsername(username);
    if (!user || !user.is_active) return undefined;
    return (await verifyPassword(password, user.password_hash)) ? user : undefined;
  }

  async update(user: UserRecord, changes: Partial<Omit<UserRecord, 'password_hash'>> & { password?: string }): Promise<UserRecord> {
    const { password, ...rest } = changes;
    const next: UserRecord = { ...user, ...rest, updated_at: nowIso() };
    if (password !== undefined) next.password_hash = await hashPassword(password);
    await clashAnswered(this.store.users.update(next), USERNAME_TAKEN);
    return next;
  }

  async resetPassword(user: UserRecord, password: string): Promise<UserRecord> {
    if (await verifyPassword(password, user.password_hash)) throw new BadRequestError('You can\'t use your current password');
    return this.update(user, { password });
  }

  async delete(actorId: string, id: string): Promise<void> {
    if (actorId === id) throw new BadRequestError('You can\'t delete your own user account');
    await this.get(id);
    await this.store.users.delete(id);
    await this.onDeleted(id);
  }

  async touchLogin(user: UserRecord): Promise<void> {
    await this.store.users.update({ ...user, last_login_at: nowIso() });
  }

  static assertCanEdit(actor: { userId: string; isSuperuser: boolean }, targetId: string): void {
    if (!actor.isSuperuser && actor.userId !== targetId) throw new ForbiddenError('Permission denied');
  }
}
