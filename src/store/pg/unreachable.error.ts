/**
 * PostgreSQL could not be reached when the store opened: said in one line naming the server (its password left
 * out), so a start-up with a wrong FLOWSVC_DATABASE_URL ends with the reason rather than a stack trace.
 */
import { UnavailableError } from '../../errors/index.js';

/** The URL as it may be printed: without its password. */
export function printableUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unparsable URL)';
  }
}

export class DatabaseUnreachableError extends UnavailableError {
  override name = 'DatabaseUnreachableError';
  constructor(url: string, cause: unknown) {
    super(`cannot reach PostgreSQL at ${printableUrl(url)} (FLOWSVC_DATABASE_URL): ${(cause as Error)?.message ?? String(cause)}`);
  }
}

/** A connection that could not be opened, as opposed to a query the database refused. */
export function isConnectFailure(error: unknown): boolean {
  const code = (error as { code?: string })?.code;
  const message = (error as Error)?.message ?? '';
  return ['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ETIMEDOUT', 'ECONNRESET', 'EAI_AGAIN', '3D000', '28000', '28P01'].includes(code ?? '') || /timeout/i.test(message);
}
