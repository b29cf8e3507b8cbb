/**
 * v2 files (spec 4.6): a user's uploads, their records in the store and their bytes in the file storage under
 * `<user_id>/<file_id>.<extension>`, the path a run reads. A user reaches only their own: another's id is "not
 * found", superusers included. A record is written only once its bytes are whole under their name.
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FileRecord } from '../../../protocol/file.schema.js';
import { BadRequestError, NotFoundError } from '../../errors/index.js';
import type { FileStorage } from '../../store/file-storage.js';
import type { FileRepo } from '../../store/port.js';
import { sanitiseName, splitName, uniqueName } from './file-names.js';

/** v2 keeps documents; images go to a flow (v1), as in Langflow. */
export const IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp', 'svg', 'ico', 'tif', 'tiff', 'avif', 'heic'];

export interface IncomingUpload {
  filename: string;
  stream: Readable;
}

export class UserFilesService {
  constructor(
    private readonly files: FileRepo,
    private readonly storage: FileStorage,
    /** Bytes; an upload past it fails (the edge answers 413). */
    readonly fileLimit: number,
  ) {}

  async upload(userId: string, incoming: IncomingUpload): Promise<FileRecord> {
    const name = sanitiseName(incoming.filename);
    if (!name) throw new BadRequestError('The file has no name');
    const { root, extension } = splitName(name);
    if (IMAGE_EXTENSIONS.includes(extension)) {
      throw new BadRequestError(`Image files (${IMAGE_EXTENSIONS.join(', ')}) are not accepted here: upload them to a flow with POST /api/v1/files/upload/{flow_id}`);
    }
    const id = randomUUID();
    const path = `${userId}/${id}${extension ? `.${extension}` : ''}`;
    const size = await this.storage.put(path, incoming.stream, this.fileLimit);
    const now = new Date().toISOString();
    const taken = (await this.files.listByUser(userId)).map((file) => file.name);
    const record: FileRecord = { id, user_id: userId, name: uniqueName(root, taken), extension, path, size, provider: null, created_at: now, updated_at: now };
    try {
      await this.files.put(record);
    } catch (error) {
      await this.storage.delete(path);
      throw error;
    }
    return record;
  }

  /** Undoes an upload whose request failed after it was stored (a second file in the body). */
  async discard(file: FileRecord): Promise<void> {
    await this.files.delete(file);
    await this.storage.delete(file.path);
  }

  list(userId: string): Promise<FileRecord[]> {
    return this.files.listByUser(userId);
  }

  async get(userId: string, id: string): Promise<FileRecord> {
    const file = await this.files.get(id);
    if (!file || file.user_id !== userId) throw new NotFoundError('File not found');
    return file;
  }

  async open(userId: string, id: string): Promise<{ file: FileRecord; bytes: Readable }> {
    const file = await this.get(userId, id);
    const bytes = await this.storage.get(file.path);
    if (!bytes) throw new NotFoundError('File not found');
    return { file, bytes };
  }

  async rename(userId: string, id: string, name: string): Promise<FileRecord> {
    const file = await this.get(userId, id);
    const renamed = { ...file, name, updated_at: new Date().toISOString() };
    await this.files.put(renamed);
    return renamed;
  }

  async delete(userId: string, id: string): Promise<FileRecord> {
    const file = await this.get(userId, id);
    await this.discard(file);
    return file;
  }

  /** Deletes the given ids of the user's; resolves with how many there were. */
  async deleteMany(userId: string, ids: readonly string[]): Promise<number> {
    const found = (await Promise.all(ids.map((id) => this.files.get(id)))).filter((file): file is FileRecord => file?.user_id === userId);
    await Promise.all(found.map((file) => this.discard(file)));
    return found.length;
  }

  /** Every file of the user (their account is deleted, or DELETE /api/v2/files). */
  async deleteAll(userId: string): Promise<void> {
    const all = await this.files.listByUser(userId);
    await Promise.all(all.map((file) => this.files.delete(file)));
    await this.storage.deleteScope(userId);
  }
}
