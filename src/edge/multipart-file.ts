/**
 * The one file of a streamed multipart body (uploads): handed to `store` as it arrives, never buffered whole.
 * Missing, doubled or oversized files are refused in the shapes Langflow's clients know: a 422 naming
 * `body.file`, or a 413 with Langflow's file-size message as soon as the limit is passed.
 */
import busboy from 'busboy';
import type { Readable } from 'node:stream';
import { AppError, BadRequestError, PayloadTooLargeError, ValidationError } from '../errors/index.js';

export interface IncomingFile {
  /** The name the client gave, as sent (the caller sanitises it). */
  filename: string;
  mimeType: string;
  stream: Readable;
}

const missing = (field: string) => new ValidationError([{ loc: ['body', field], msg: 'Field required', type: 'missing' }]);

/**
 * Streams the file under `field` into `store`, and resolves with what it stored once the whole body is read. A
 * second file under `field` fails the upload after `discard` undoes the first.
 */
export function receiveFile<T>(body: Readable, headers: Readonly<Record<string, string>>, field: string, fileLimit: number, store: (file: IncomingFile) => Promise<T>, discard: (stored: T) => Promise<void>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (!/^multipart\/form-data/i.test(headers['content-type'] ?? '')) {
      body.destroy();
      return reject(missing(field));
    }
    let parser: busboy.Busboy;
    try {
      // Clients send non-ASCII file names as raw UTF-8 (browsers, fetch's FormData); busboy's default reads them as latin1.
      parser = busboy({ headers: { ...headers, 'content-type': headers['content-type'] ?? '' }, limits: { fileSize: fileLimit }, defParamCharset: 'utf8' });
    } catch {
      body.destroy();
      return reject(missing(field));
    }
    let storing: Promise<T> | undefined;
    let file: Readable | undefined;
    let extra = false;
    let failure: unknown;
    const fail = (error: unknown) => {
      failure ??= error;
      body.unpipe(parser);
      body.destroy();
      // The file being stored fails with the body, so that its store gives up and leaves nothing.
      if (file && !file.destroyed) file.destroy(error instanceof Error ? error : new Error(String(error)));
    };
    parser.on('file', (name, stream, info) => {
      if (name !== field || storing) {
        if (name === field) extra = true;
        stream.on('error', ignore);
        stream.resume();
        return;
      }
      stream.on('limit', () => {
        const error = new PayloadTooLargeError(`File size is larger than the maximum file size ${Math.round(fileLimit / 1048576)}MB.`);
        stream.destroy(error);
        fail(error);
      });
      file = stream;
      // Failed here when the body fails; the store sees it through its own read, maybe not attached yet: until
      // then an 'error' event without a listener would end the process.
      stream.on('error', ignore);
      storing = store({ filename: info.filename ?? '', mimeType: info.mimeType, stream });
      storing.catch((error: unknown) => {
        // A file refused for what it is (an image, no name) is read to its end, so that the client, still
        // sending, gets the answer rather than a closed connection; a failing store or body stops the read.
        if (error instanceof AppError && !(error instanceof PayloadTooLargeError)) {
          failure ??= error;
          stream.resume();
        } else fail(error);
      });
    });
    // A body that is not well-formed multipart (cut short, a bad boundary) is the client's mistake: a 400, as
    // Langflow's form parser answers it, naming what is wrong.
    parser.on('error', (error: Error) => fail(new BadRequestError(`Malformed multipart body: ${error.message}`)));
    body.on('error', (error) => fail(error));
    parser.on('close', async () => {
      if (!storing) return reject(failure ?? missing(field));
      try {
        const stored = await storing;
        if (extra) {
          await discard(stored);
          return reject(new ValidationError([{ loc: ['body', field], msg: 'Expected one file, got several', type: 'too_many_files' }]));
        }
        if (failure) throw failure;
        resolve(stored);
      } catch (error) {
        reject(failure ?? error);
      }
    });
    // A body that fails (over the route's limit, a client gone) ends the parse: nothing more will arrive.
    body.on('close', () => {
      if (!body.readableEnded && !parser.destroyed) parser.destroy(failure instanceof Error ? failure : new Error('upload cut off'));
    });
    body.pipe(parser);
  });
}

const ignore = () => {};
