/** /api/v2/files (spec 4.6): the current user's files. Uploads stream to the file storage, never buffered whole. */
import { z } from 'zod';
import { DownloadQuery, FileIdParams, FileListItem, FileReply, RenameQuery, type FileRecord } from '../../../protocol/file.schema.js';
import { BoundedId, LIST_MAX_ITEMS } from '../../../protocol/limits.js';
import { PayloadTooLargeError } from '../../errors/index.js';
import { receiveFile } from '../../edge/multipart-file.js';
import { Reply } from '../../edge/reply.js';
import { defineRoute, type Route } from '../../edge/route.js';
import type { Services } from '../../services/services.js';
import { attachment, pipeToSink } from './download.js';
import { zipToSink } from './zip-download.js';

const reply = (file: FileRecord): FileReply => ({ id: file.id, name: file.name, path: file.path, size: file.size, provider: file.provider });
const listed = ({ extension: _extension, ...file }: FileRecord) => file;
const fileName = (file: FileRecord) => (file.extension ? `${file.name}.${file.extension}` : file.name);
const Ids = z.array(BoundedId).max(LIST_MAX_ITEMS);
const errorReply = (description: string) => ({ description });
/** return_content turns the whole file into one JSON string in memory: past this, the client downloads it. */
const RETURN_CONTENT_MAX_BYTES = 32 * 1024 * 1024;

export function userFilesRoutes(services: Services): Route[] {
  const { userFiles } = services;
  const tags = ['Files'];
  const upload = (path: string, hidden?: boolean) =>
    defineRoute({
      method: 'POST',
      path,
      hidden,
      summary: 'Upload a file (multipart field `file`); images are refused (they belong to a flow: v1)',
      tags,
      auth: 'user',
      bodyKind: 'stream',
      responses: {
        201: { description: 'The stored file', schema: FileReply },
        400: errorReply('An image, a file without a name, or a malformed multipart body'),
        413: errorReply('Larger than FLOWSVC_MAX_FILE_SIZE_UPLOAD'),
        422: errorReply('No multipart body, or no (or several) `file` fields'),
      },
      handler: async ({ bodyStream, headers, principal }) => {
        const userId = principal!.userId;
        const stored = await receiveFile(bodyStream!, headers, 'file', userFiles.fileLimit, (file) => userFiles.upload(userId, file), (file) => userFiles.discard(file));
        return Reply.json(reply(stored), 201);
      },
    });

  return [
    upload('/api/v2/files'),
    defineRoute({
      method: 'GET',
      path: '/api/v2/files',
      summary: 'List your files',
      tags,
      auth: 'user',
      responses: { 200: { description: 'Your files', schema: z.array(FileListItem) } },
      handler: async ({ principal }) => (await userFiles.list(principal!.userId)).map(listed),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v2/files',
      summary: 'Delete all your files',
      tags,
      auth: 'user',
      responses: { 200: { description: 'Deleted' } },
      handler: async ({ principal }) => {
        await userFiles.deleteAll(principal!.userId);
        return { message: 'All files deleted successfully' };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v2/files/batch',
      summary: 'Download several of your files as one ZIP, by id',
      tags,
      auth: 'user',
      body: Ids,
      responses: { 200: { description: 'A ZIP of the files', contentType: 'application/x-zip-compressed' }, 404: errorReply('None of the ids is a file of yours') },
      handler: async ({ body, principal }) => {
        const userId = principal!.userId;
        const found = (await Promise.all(body.map((id) => userFiles.get(userId, id).catch(() => undefined)))).filter((file) => file !== undefined);
        if (found.length === 0) return Reply.json({ detail: 'No files found' }, 404);
        const entries = found.map((file) => ({ name: fileName(file), open: () => userFiles.open(userId, file.id).then(({ bytes }) => bytes, () => undefined) }));
        const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '_').slice(0, 15);
        return Reply.stream('application/x-zip-compressed', (sink) => zipToSink(entries, sink), { 'content-disposition': attachment(`${stamp}_langflow_files.zip`) });
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v2/files/batch',
      summary: 'Delete several of your files by id',
      tags,
      auth: 'user',
      body: Ids,
      responses: { 200: { description: 'How many were deleted' }, 404: errorReply('None of the ids is a file of yours') },
      handler: async ({ body, principal }) => {
        const count = await userFiles.deleteMany(principal!.userId, body);
        if (count === 0) return Reply.json({ detail: 'No files found' }, 404);
        return { message: `${count} files deleted successfully` };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v2/files/:file_id',
      summary: 'Download one of your files (return_content=true: its text as a JSON string)',
      tags,
      auth: 'user',
      params: FileIdParams,
      query: DownloadQuery,
      responses: { 200: { description: 'The bytes', contentType: 'application/octet-stream' }, 404: errorReply('No such file of yours') },
      handler: async ({ params, query, principal }) => {
        const { file, bytes } = await userFiles.open(principal!.userId, params.file_id);
        if (query.return_content) {
          if (file.size > RETURN_CONTENT_MAX_BYTES) {
            bytes.destroy();
            throw new PayloadTooLargeError(`File too large to return as content (${file.size} bytes, at most ${RETURN_CONTENT_MAX_BYTES}): download it without return_content`);
          }
          const chunks: Buffer[] = [];
          for await (const chunk of bytes) chunks.push(chunk as Buffer);
          return Reply.json(Buffer.concat(chunks).toString('utf8'));
        }
        return Reply.stream('application/octet-stream', (sink) => pipeToSink(bytes, sink), { 'content-disposition': attachment(fileName(file)) });
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/api/v2/files/:file_id',
      summary: 'Rename one of your files (?name=, without its extension)',
      tags,
      auth: 'user',
      params: FileIdParams,
      query: RenameQuery,
      responses: { 200: { description: 'The renamed file', schema: FileReply }, 404: errorReply('No such file of yours') },
      handler: async ({ params, query, principal }) => reply(await userFiles.rename(principal!.userId, params.file_id, query.name)),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v2/files/:file_id',
      summary: 'Delete one of your files',
      tags,
      auth: 'user',
      params: FileIdParams,
      responses: { 200: { description: 'Deleted' }, 404: errorReply('No such file of yours') },
      handler: async ({ params, principal }) => {
        const file = await userFiles.delete(principal!.userId, params.file_id);
        return { detail: `File ${file.name} deleted successfully` };
      },
    }),
  ];
}
