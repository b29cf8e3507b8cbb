/**
 * The files a run reaches for its caller: what it may read (CallerFiles) and where it saves (the caller's own v2
 * files, as Langflow's Write File uploads what it wrote). A saved file is an upload like any other: listed by
 * GET /api/v2/files, downloadable, deletable; never a path on the server's disk of the flow's choosing.
 */
import { Readable } from 'node:stream';
import type { CallersFiles, SavedFile } from '../../components/contract.js';
import type { CallerFiles } from './caller-files.js';
import type { UserFilesService } from './user-files.service.js';

export class RunFiles implements CallersFiles {
  constructor(
    private readonly readable: CallerFiles,
    private readonly userFiles: UserFilesService,
  ) {}

  open(path: string, userId: string): Promise<string> {
    return this.readable.open(path, userId);
  }

  async save(userId: string, name: string, content: string): Promise<SavedFile> {
    const record = await this.userFiles.upload(userId, { filename: name, stream: Readable.from([Buffer.from(content)]) });
    return { id: record.id, name: record.extension ? `${record.name}.${record.extension}` : record.name, path: record.path };
  }
}
