/** v1 files (spec 2.11, 4.6): uploads kept by flow, under `<flow_id>/<timestamp>_<name>`; no records, the folder is the list. */
import { z } from 'zod';
import { FileName } from './file.schema.js';
import { BoundedId } from './limits.js';

export const FlowFilesParams = z.object({ flow_id: BoundedId });
export const FlowFileParams = z.object({ flow_id: BoundedId, file_name: FileName });

/** What an upload answers: `file_path` is what a run's `path` tweak names. */
export const FlowUploadReply = z.object({ flowId: z.string(), file_path: z.string() });
export type FlowUploadReply = z.output<typeof FlowUploadReply>;

/** A flow's files by stored name; profile pictures as `<folder>/<name>`. */
export const FileNameList = z.object({ files: z.array(z.string()) });

export const ProfilePictureParams = z.object({ folder_name: FileName, file_name: FileName });
