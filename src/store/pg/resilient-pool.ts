/**
 * The pool every PostgreSQL repo queries. A server restart (or an administrator) cuts the connections idle in the
 * pool, and the pool learns of a cut only when it next reads that connection's socket: a query handed one in between
 * fails although the server is up again. A read that fails so is sent again on another connection, which changes
 * nothing it returns. A write is not: it may have been applied before the cut, so it fails as Unavailable (503, try
 * again) rather than as an internal error, and so does any query while the server cannot be reached.
 */
import pg from 'pg';
import { UnavailableError } from '../../errors/index.js';
import { isConnectFailure } from './unreachable.error.js';

/** The server ended the session: admin_shutdown, crash_shutdown, cannot_connect_now. */
const SESSION_ENDED = new Set(['57P01', '57P02', '57P03']);
/** What pg's client says when its socket closed under it, or closed earlier. */
const SOCKET_CLOSED = /^(Connection terminated|Client has encountered a connection error|Client was closed)/;

/** The connection a query went out on was gone, as opposed to the query refused by a live server. */
export function isConnectionLost(error: unknown): boolean {
  const { code, message = '' } = (error ?? {}) as { code?: string; message?: string };
  return SESSION_ENDED.has(code ?? '') || code === 'ECONNRESET' || code === 'EPIPE' || SOCKET_CLOSED.test(message);
}

/** The SQL of a query as pg takes it: text, or a config object's `text`. */
const statementOf = (text: unknown): string => (typeof text === 'string' ? text : String((text as { text?: unknown })?.text ?? ''));

/**
 * A statement that only reads. `append_messages` is the one function of ours called by SELECT, and it writes
 * (src/store/pg/migrations.ts).
 */
export const onlyReads = (sql: string): boolean => /^\s*SELECT\b/i.test(sql) && !/\bappend_messages\s*\(/i.test(sql);

/**
 * Tries that reach a live connection however many were cut: each failed one drops its dead connection, and the pool
 * holds at most `max` (pg's default is 10).
 */
export const triesPastDeadConnections = (pool: pg.Pool): number => (pool.options.max ?? 10) + 1;

export class DatabaseUnavailableError extends UnavailableError {
  override name = 'DatabaseUnavailableError';
  constructor(cause: unknown) {
    super(`PostgreSQL unavailable: ${(cause as Error)?.message ?? String(cause)}`, 'The database is unavailable; try again.', { cause });
  }
}

/** A failure of the connection rather than of the statement, as the error the edge answers 503 with. */
export const asUnavailable = (error: unknown): unknown =>
  isConnectionLost(error) || isConnectFailure(error) ? new DatabaseUnavailableError(error) : error;

export class ResilientPool extends pg.Pool {
  /**
   * As pg's, for the form the repos use (text, values; a promise). A read goes out again while its connection was
   * lost, on another connection each time.
   */
  override async query(text: any, values?: any): Promise<any> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await super.query(text, values);
      } catch (error) {
        // The statement is looked at only once its connection failed: nothing is added to a query that succeeds.
        if (isConnectionLost(error) && attempt < triesPastDeadConnections(this) && onlyReads(statementOf(text))) continue;
        throw asUnavailable(error);
      }
    }
  }
}
