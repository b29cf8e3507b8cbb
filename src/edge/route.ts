/**
 * The route contract: every endpoint is one of these, listed in src/api/routes.ts and bound to uWS by
 * src/edge/uws-server.ts. Handlers see validated input and return a value or a Reply; never a uWS object.
 */
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import type { ErrorBody } from './error-reply.js';
import type { Reply } from './reply.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';

/**
 * How a route authenticates:
 * - `none`: open.
 * - `api-key`: Langflow's v1 api_key_security (403s, auto-login rules).
 * - `api-key-v2`: the same keys, but missing/invalid answers 401 (spec part 7).
 * - `user`: an API key or a JWT (bearer header or `access_token_lf` cookie).
 * - `superuser`: `user` with superuser rights.
 * - `webhook`: `api-key` unless FLOWSVC_WEBHOOK_AUTH_ENABLE is false (then the flow owner runs it).
 */
export type AuthMode = 'none' | 'api-key' | 'api-key-v2' | 'user' | 'superuser' | 'webhook';

/** How the body is read: JSON through the body schema, multipart form, or the raw bytes. */
/** `stream`: the body reaches the handler unread, as `bodyStream` (uploads, never buffered whole). */
export type BodyKind = 'json' | 'multipart' | 'raw' | 'stream';

export interface UploadedFile {
  field: string;
  filename: string;
  mimeType: string;
  data: Buffer;
}

/** Word of a client that went away, for a handler that must stop work done on its behalf. */
export interface ClientWatch {
  /** Calls `listener` once if the client goes away before the reply ends (at once if it already has). */
  onClientGone(listener: () => void): void;
}

export interface RouteRequest<P, Q, B> extends ClientWatch {
  params: P;
  query: Q;
  body: B;
  /** Lower-cased header names. */
  headers: Readonly<Record<string, string>>;
  /** Files of a multipart body (bodyKind `multipart`); empty otherwise. */
  files: UploadedFile[];
  /** The body, unread (bodyKind `stream`): it fails past the route's limit or when the client goes away. */
  bodyStream?: Readable;
  principal: Principal | null;
  /** The client's IP address as text (the peer of the connection; proxies are not trusted). */
  clientAddress(): string;
}

export interface Route<P = any, Q = any, B = any> {
  method: HttpMethod;
  /** `:name` marks a path parameter; a trailing slash is optional when matching. */
  path: string;
  summary: string;
  tags: string[];
  auth: AuthMode;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  bodyKind?: BodyKind;
  /** Bytes; defaults to the service-wide upload limit. */
  bodyLimit?: number;
  /** Documented replies for /openapi.json, by status. */
  responses?: Record<number, { description: string; schema?: z.ZodType; contentType?: string }>;
  /** Hidden from /openapi.json (aliases, redirects). */
  hidden?: boolean;
  /** Listed in /openapi.json as deprecated (a successor exists). */
  deprecated?: boolean;
  /** The body of this route's error replies (auth and validation included); Langflow's `{"detail": ...}` by default. */
  errorBody?: ErrorBody;
  handler(req: RouteRequest<P, Q, B>): unknown | Promise<unknown>;
}

/** Identity function that gives a route literal its inferred types. */
export function defineRoute<P = undefined, Q = undefined, B = undefined>(route: Route<P, Q, B>): Route<P, Q, B> {
  return route;
}
