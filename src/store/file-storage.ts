/**
 * The file storage port: the bytes of uploaded files, by key (`<scope>/<name>`), as streams both ways. Records
 * about files live in the store (FileRepo); nothing above this port touches the file system, so an object store
 * can take its place without changing the routes.
 */
import type { Readable } from 'node:stream';

export interface FileStorage {
  /**
   * Writes `source` under `key`, whole or not at all: resolves with its size once it is complete and durable
   * under its name; when the source fails, is destroyed or passes `limit` bytes, rejects and leaves nothing.
   */
  put(key: string, source: Readable, limit: number): Promise<number>;
  /** The bytes under `key`, or undefined when there are none. */
  get(key: string): Promise<Readable | undefined>;
  /** The size of what is under `key`, or undefined. */
  size(key: string): Promise<number | undefined>;
  /** Removes `key` (nothing when absent). */
  delete(key: string): Promise<void>;
  /** Removes every key under `scope/` (a deleted flow's or user's files). */
  deleteScope(scope: string): Promise<void>;
  /** The keys under `scope/`, by name (without the scope). */
  list(scope: string): Promise<string[]>;
}

/** Raised by `put` when the source passes its limit. */
export class FileTooLargeError extends Error {
  override name = 'FileTooLargeError';
}
