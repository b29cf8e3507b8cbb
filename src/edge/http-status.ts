/** Status lines for uWS, which wants "200 OK" rather than a number. */
import { STATUS_CODES } from 'node:http';

const lines = new Map<number, string>();

export function statusLine(status: number): string {
  let line = lines.get(status);
  if (!line) lines.set(status, (line = `${status} ${STATUS_CODES[status] ?? 'Unknown'}`));
  return line;
}
