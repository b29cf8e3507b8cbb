/** Turns raw request parts (query string, body bytes) into validated route input. */
import busboy from 'busboy';
import type { z } from 'zod';
import { BadRequestError, PayloadTooLargeError, ValidationError } from '../errors/index.js';
import { MAX_JSON_DEPTH, nestsDeeperThan, parseUntrustedJson } from '../../protocol/json-guard.js';
import type { Route, UploadedFile } from './route.js';

/** `a=1&b=2&b=3` -> `{a: '1', b: ['2', '3']}`. */
export function parseQuery(query: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  if (!query) return out;
  for (const [key, value] of new URLSearchParams(query)) {
    const prior = out[key];
    if (prior === undefined) out[key] = value;
    else if (Array.isArray(prior)) prior.push(value);
    else out[key] = [prior, value];
  }
  return out;
}

export function validate<T>(where: 'path' | 'query' | 'body', schema: z.ZodType<T> | undefined, value: unknown): T {
  if (!schema) return value as T;
  // Asking zod for `reportInput` turns off its compiled fast path (10x slower), so only a failure is parsed again.
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  // zod 4 leaves `input` off its issues unless asked; without it every wrong type would read as "Field required".
  const detailed = schema.safeParse(value, { reportInput: true });
  throw ValidationError.fromZod(where, detailed.success ? parsed.error : detailed.error);
}

/** JSON body: empty means undefined (schemas decide whether that is allowed); malformed or too deep is a 422. */
export function parseJsonBody(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  if (nestsDeeperThan(raw, MAX_JSON_DEPTH)) {
    throw ValidationError.single(['body'], `JSON nests deeper than ${MAX_JSON_DEPTH} levels`, 'json_too_deep');
  }
  try {
    return parseUntrustedJson(raw);
  } catch (error) {
    throw ValidationError.single(['body', 0], `JSON decode error: ${(error as Error).message}`, 'json_invalid');
  }
}

export interface MultipartBody {
  fields: Record<string, string>;
  files: UploadedFile[];
}

/** Starlette's bounds on a form (Langflow's parser): more parts than these is not a form a client means to send. */
const FORM_LIMITS = { files: 1000, fields: 1000, fieldNameSize: 1024, fieldSize: 1024 * 1024 };

const malformed = (what: string) => new BadRequestError(`Invalid multipart body: ${what}`);

/**
 * Multipart form data through busboy (fields and files, each file within `fileLimit` bytes). Every stream busboy
 * makes fails when the body is cut short or malformed: each has its error handled, and the first failure is the
 * answer (a 400 naming it), never an unhandled 'error' event.
 */
export function parseMultipart(raw: Buffer, headers: Record<string, string>, fileLimit: number): Promise<MultipartBody> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: { ...headers, 'content-type': headers['content-type'] ?? '' }, limits: { ...FORM_LIMITS, fileSize: fileLimit }, defParamCharset: 'utf8' });
    } catch (error) {
      return fail(malformed((error as Error).message));
    }
    const fields: Record<string, string> = {};
    const files: UploadedFile[] = [];
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated || info.nameTruncated) return fail(malformed(`field ${JSON.stringify(name.slice(0, 100))} is too long`));
      // Dropped as in JSON bodies: the name would otherwise set the object's prototype.
      if (name !== '__proto__') fields[name] = value;
    });
    parser.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('error', (error: Error) => fail(malformed(error.message)));
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(new PayloadTooLargeError(`File size is larger than the maximum file size ${Math.round(fileLimit / 1048576)}MB.`)));
      stream.on('end', () => files.push({ field, filename: info.filename ?? '', mimeType: info.mimeType, data: Buffer.concat(chunks) }));
    });
    parser.on('filesLimit', () => fail(malformed(`more than ${FORM_LIMITS.files} files`)));
    parser.on('fieldsLimit', () => fail(malformed(`more than ${FORM_LIMITS.fields} fields`)));
    parser.on('error', (error: Error) => fail(malformed(error.message)));
    parser.on('close', () => {
      if (settled) return;
      settled = true;
      resolve({ fields, files });
    });
    parser.end(raw);
  });
}

/** The body limit for a route, in bytes. */
export function bodyLimitOf(route: Route, defaultLimit: number): number {
  return route.bodyLimit ?? defaultLimit;
}
