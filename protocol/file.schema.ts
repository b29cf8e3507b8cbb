/** v2 file records (spec 2.11, 4.6): a user's uploads, tracked in the store; bytes are kept by the file storage. */
import { z } from 'zod';
import { BoundedId, NAME_MAX_CHARS } from './limits.js';

/** A stored v2 file: `name` without its extension, `path` = `<user_id>/<id>.<extension>` (what a run reads). */
export const FileRecord = z.object({
  id: z.string(),
  user_id: z.string(),
  name: z.string(),
  /** The extension without its dot, lower-case ('' when the upload had none). */
  extension: z.string(),
  path: z.string(),
  size: z.number().int().nonnegative(),
  provider: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type FileRecord = z.output<typeof FileRecord>;

/** What upload and rename answer (spec 2.11). */
export const FileReply = FileRecord.pick({ id: true, name: true, path: true, size: true, provider: true });
export type FileReply = z.output<typeof FileReply>;

/** A listed file, in Langflow's list shape. */
export const FileListItem = FileRecord.omit({ extension: true });

export const FileIdParams = z.object({ file_id: BoundedId });

/** A file's name where it becomes part of a storage key: one path segment, bounded. */
export const FileName = z
  .string()
  .min(1, 'The name must not be empty')
  .max(NAME_MAX_CHARS, `The name must be at most ${NAME_MAX_CHARS} characters`)
  .refine((name) => !/[/\\\0]/.test(name) && name !== '.' && name !== '..', 'The name must not hold a path');

/** `PUT /api/v2/files/{id}?name=`: a name with no path in it. */
export const RenameQuery = z.object({ name: z.string().trim().pipe(FileName) });

export const DownloadQuery = z.object({ return_content: z.enum(['true', 'false']).optional().transform((v) => v === 'true') });
