/** /api/v1/files (spec 4.6): a flow's files, its owner's only. Uploads stream to the file storage, never buffered whole. */
import { FileNameList, FlowFileParams, FlowFilesParams, FlowUploadReply } from '../../../protocol/flow-file.schema.js';
import { BadRequestError } from '../../errors/index.js';
import { receiveFile } from '../../edge/multipart-file.js';
import { Reply } from '../../edge/reply.js';
import { defineRoute, type Route } from '../../edge/route.js';
import { IMAGE_EXTENSIONS } from '../../services/files/user-files.service.js';
import type { Services } from '../../services/services.js';
import { INLINE_FILE_HEADERS, contentTypeOf, imageTypeOf } from './content-type.js';
import { attachment, pipeToSink } from './download.js';

const errorReply = (description: string) => ({ description });
const notFound = errorReply('No such flow of yours, or no such file');
const badName = errorReply('A flow id or file name that is too long or holds a path');

export function flowFilesRoutes(services: Services): Route[] {
  const { flowFiles } = services;
  const tags = ['Files'];
  const upload = (path: string, deprecated?: boolean) =>
    defineRoute({
      method: 'POST',
      path,
      deprecated,
      summary: deprecated ? 'Upload a file to a flow (deprecated: use POST /api/v1/files/upload/{flow_id})' : 'Upload a file to a flow (multipart field `file`); images included',
      tags,
      auth: 'user',
      params: FlowFilesParams,
      bodyKind: 'stream',
      responses: {
        201: { description: 'Where the file is kept: its `file_path` is what a run reads', schema: FlowUploadReply },
        400: errorReply('A file without a name, or a malformed multipart body'),
        404: errorReply('No such flow of yours'),
        413: errorReply('Larger than FLOWSVC_MAX_FILE_SIZE_UPLOAD'),
        422: errorReply('No multipart body, no (or several) `file` fields, or a bad flow id'),
      },
      handler: async ({ params, bodyStream, headers, principal }) => {
        await flowFiles.checkOwner(principal!.userId, params.flow_id);
        const stored = await receiveFile(bodyStream!, headers, 'file', flowFiles.fileLimit, (file) => flowFiles.upload(params.flow_id, file), (upload) => flowFiles.discard(upload));
        return Reply.json(stored, 201, deprecated ? { deprecation: 'true' } : {});
      },
    });

  return [
    upload('/api/v1/files/upload/:flow_id'),
    upload('/api/v1/upload/:flow_id', true),
    defineRoute({
      method: 'GET',
      path: '/api/v1/files/list/:flow_id',
      summary: "List a flow's files (their stored names)",
      tags,
      auth: 'user',
      params: FlowFilesParams,
      responses: { 200: { description: 'The stored names', schema: FileNameList }, 404: notFound, 422: badName },
      handler: async ({ params, principal }) => ({ files: await flowFiles.list(principal!.userId, params.flow_id) }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/files/download/:flow_id/:file_name',
      summary: "Download one of a flow's files",
      tags,
      auth: 'user',
      params: FlowFileParams,
      responses: { 200: { description: 'The bytes, typed by their extension', contentType: 'application/octet-stream' }, 404: notFound, 422: badName },
      handler: async ({ params, principal }) => {
        const bytes = await flowFiles.open(principal!.userId, params.flow_id, params.file_name);
        return Reply.stream(contentTypeOf(params.file_name), (sink) => pipeToSink(bytes, sink), { 'content-disposition': attachment(params.file_name), 'x-content-type-options': 'nosniff' });
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/files/images/:flow_id/:file_name',
      summary: "Show one of a flow's images (inline)",
      tags,
      auth: 'user',
      params: FlowFileParams,
      responses: { 200: { description: 'The image', contentType: 'image/*' }, 400: errorReply('Not an image'), 404: notFound, 422: badName },
      handler: async ({ params, principal }) => {
        const userId = principal!.userId;
        // Whose flow it is comes first: a stranger learns nothing about the name.
        await flowFiles.checkOwner(userId, params.flow_id);
        const type = imageTypeOf(params.file_name);
        if (!type) throw new BadRequestError(`Not an image: only ${IMAGE_EXTENSIONS.join(', ')} files are shown here; use /api/v1/files/download for others`);
        const bytes = await flowFiles.open(userId, params.flow_id, params.file_name);
        return Reply.stream(type, (sink) => pipeToSink(bytes, sink), INLINE_FILE_HEADERS);
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/files/delete/:flow_id/:file_name',
      summary: "Delete one of a flow's files",
      tags,
      auth: 'user',
      params: FlowFileParams,
      responses: { 200: { description: 'Deleted' }, 404: notFound, 422: badName },
      handler: async ({ params, principal }) => {
        await flowFiles.delete(principal!.userId, params.flow_id, params.file_name);
        return { message: `File ${params.file_name} deleted successfully` };
      },
    }),
  ];
}
