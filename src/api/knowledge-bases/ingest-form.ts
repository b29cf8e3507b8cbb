/**
 * The multipart body of `POST /api/v1/knowledge_bases/{name}/ingest`: Langflow's form (`files` parts, and
 * `source_name`, `chunk_size`, `chunk_overlap`, `separator`, `metadata`, `per_file_metadata`, `column_config`
 * fields), plus ours, `file_ids` (a JSON list of the caller's uploaded v2 files, by id or path). Files stream to
 * the ingestion's staging folder, each bounded by the upload limit, never buffered whole; a body that fails leaves
 * nothing staged.
 */
import busboy from 'busboy';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { IngestionFile } from '../../../protocol/knowledge-base.schema.js';
import { PayloadTooLargeError, ValidationError } from '../../errors/index.js';
import { sanitiseName } from '../../services/files/file-names.js';

export interface IngestForm {
  fields: Record<string, string>;
  files: IngestionFile[];
}

/** Form fields are short; more of them than this, or longer, is not Langflow's form. */
const FIELD_LIMITS = { fields: 50, fieldSize: 1024 * 1024, files: 1000 };

const invalid = (msg: string, loc: string[] = ['body']) => new ValidationError([{ loc, msg, type: 'value_error' }]);

export async function readIngestForm(body: Readable, headers: Readonly<Record<string, string>>, stagingDir: string, fileLimit: number): Promise<IngestForm> {
  if (!/^multipart\/form-data/i.test(headers['content-type'] ?? '')) {
    body.destroy();
    throw invalid('Expected a multipart/form-data body', ['body', 'files']);
  }
  const fields: Record<string, string> = {};
  const files: IngestionFile[] = [];
  const writes: Promise<void>[] = [];
  await mkdir(stagingDir, { recursive: true });
  try {
    await new Promise<void>((resolve, reject) => {
      let parser: busboy.Busboy;
      try {
        parser = busboy({ headers: { ...headers, 'content-type': headers['content-type'] ?? '' }, limits: { ...FIELD_LIMITS, fileSize: fileLimit }, defParamCharset: 'utf8' });
      } catch {
        body.destroy();
        return reject(invalid('Malformed multipart body'));
      }
      const open = new Set<Readable>();
      const fail = (error: unknown) => {
        body.unpipe(parser);
        body.destroy();
        // A file being written fails with the body, so that its write settles and the staging folder can go.
        for (const stream of open) stream.destroy(error instanceof Error ? error : new Error(String(error)));
        reject(error);
      };
      parser.on('field', (name, value, info) => {
        if (info.valueTruncated) return fail(invalid(`Field ${name} is too long`, ['body', name]));
        fields[name] = value;
      });
      parser.on('file', (name, stream, info) => {
        // Every file stream fails when the body is cut short: one without a listener would end the process.
        stream.on('error', (error: Error) => fail(invalid(`Malformed multipart body: ${error.message}`)));
        if (name !== 'files' && name !== 'file') {
          stream.resume();
          return;
        }
        const display = sanitiseName(info.filename ?? '') || `file-${files.length + 1}`;
        const path = join(stagingDir, `${files.length}-${display.replace(/[^A-Za-z0-9._-]/g, '_').slice(-120)}`);
        const file: IngestionFile = { name: display, path, size: 0, staged: true };
        files.push(file);
        stream.on('data', (chunk: Buffer) => (file.size += chunk.byteLength));
        stream.on('limit', () => fail(new PayloadTooLargeError(`File ${display} exceeds the maximum upload size of ${Math.round(fileLimit / 1048576)}MB`)));
        open.add(stream);
        stream.once('close', () => open.delete(stream));
        writes.push(pipeline(stream, createWriteStream(path)).catch((error: unknown) => fail(error)));
      });
      parser.on('filesLimit', () => fail(invalid(`At most ${FIELD_LIMITS.files} files per ingestion`, ['body', 'files'])));
      parser.on('fieldsLimit', () => fail(invalid(`At most ${FIELD_LIMITS.fields} form fields`)));
      parser.on('error', (error: Error) => fail(invalid(`Malformed multipart body: ${error.message}`)));
      parser.on('close', () => void Promise.all(writes).then(() => resolve(), reject));
      body.on('error', fail);
      body.pipe(parser);
    });
  } catch (error) {
    await Promise.allSettled(writes);
    await rm(stagingDir, { recursive: true, force: true });
    throw error;
  }
  return { fields, files };
}
