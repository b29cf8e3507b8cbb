/**
 * v1 files (spec 4.6): uploads kept by flow in the file storage under `<flow_id>/<timestamp>_<name>`, the
 * `file_path` a run reads. There are no records: the flow's folder is its list, and the flow's deletion takes the
 * folder. Only the flow's owner reaches them; anyone else, superusers included, finds no such flow.
 */
import type { Readable } from 'node:stream';
import type { FlowUploadReply } from '../../../protocol/flow-file.schema.js';
import { NAME_MAX_CHARS } from '../../../protocol/limits.js';
import { BadRequestError, NotFoundError } from '../../errors/index.js';
import type { FileStorage } from '../../store/file-storage.js';
import { fitBytes, sanitiseName, timestamp, uniqueFileName } from './file-names.js';
import type { IncomingUpload } from './user-files.service.js';

export interface FlowOwnership {
  /** Resolves when the flow is the user's; rejects with "Flow not found" otherwise. */
  owned(userId: string, flowId: string): Promise<unknown>;
}

/**
 * `YYYY-MM-DD_HH-MM-SS_`, and room for a ` (n)` numbering: a stored name stays within the name bound (characters,
 * for the path parameter) and the file system's (bytes: it is the file's name on disk).
 */
const PREFIX_CHARS = 20;
const NUMBERING_CHARS = 8;
const DISK_NAME_BYTES = 255;

export class FlowFilesService {
  /** Names being written, by key: two uploads of one name in one second get different names before either is whole. */
  private readonly writing = new Set<string>();

  constructor(
    private readonly flows: FlowOwnership,
    private readonly storage: FileStorage,
    /** Bytes; an upload past it fails (the edge answers 413). */
    readonly fileLimit: number,
  ) {}

  /** Checked before the body is read, so that a stranger's upload is refused without reading it. */
  async checkOwner(userId: string, flowId: string): Promise<void> {
    await this.flows.owned(userId, flowId);
  }

  async upload(flowId: string, incoming: IncomingUpload, at = new Date()): Promise<FlowUploadReply> {
    const name = fitBytes(sanitiseName(incoming.filename, NAME_MAX_CHARS - PREFIX_CHARS - NUMBERING_CHARS), DISK_NAME_BYTES - PREFIX_CHARS - NUMBERING_CHARS);
    if (!name) throw new BadRequestError('The file has no name');
    const taken = await this.storage.list(flowId);
    // No await between choosing the name and reserving it: no other upload can choose it in between.
    const reserved = [...this.writing].filter((key) => key.startsWith(`${flowId}/`)).map((key) => key.slice(flowId.length + 1));
    const stored = uniqueFileName(`${timestamp(at)}_${name}`, [...taken, ...reserved]);
    const key = `${flowId}/${stored}`;
    this.writing.add(key);
    try {
      await this.storage.put(key, incoming.stream, this.fileLimit);
    } finally {
      this.writing.delete(key);
    }
    return { flowId, file_path: key };
  }

  /** Undoes an upload whose request failed after it was stored (a second file in the body). */
  async discard(upload: FlowUploadReply): Promise<void> {
    await this.storage.delete(upload.file_path);
  }

  async list(userId: string, flowId: string): Promise<string[]> {
    await this.checkOwner(userId, flowId);
    return (await this.storage.list(flowId)).sort();
  }

  async open(userId: string, flowId: string, name: string): Promise<Readable> {
    await this.checkOwner(userId, flowId);
    const bytes = await this.storage.get(`${flowId}/${name}`);
    if (!bytes) throw new NotFoundError('File not found');
    return bytes;
  }

  async delete(userId: string, flowId: string, name: string): Promise<void> {
    await this.checkOwner(userId, flowId);
    const key = `${flowId}/${name}`;
    if ((await this.storage.size(key)) === undefined) throw new NotFoundError('File not found');
    await this.storage.delete(key);
  }

  /** Every file of the given flows (they are being deleted). */
  async deleteForFlows(flowIds: readonly string[]): Promise<void> {
    await Promise.all(flowIds.map((id) => this.storage.deleteScope(id)));
  }
}
