/** Which lines a /logs query asks for, with Langflow's rules and refusals (10 lines when nothing says how many). */
import type { z } from 'zod';
import type { LogsQuery } from '../../../protocol/logs.schema.js';
import { BadRequestError } from '../../errors/app.error.js';
import type { LogLines, LogRing } from '../../observability/log-ring.js';

const DEFAULT_LINES = 10;

export function readLogs(ring: LogRing, query: z.infer<typeof LogsQuery>): LogLines {
  const { lines_before: before, lines_after: after, timestamp } = query;
  if (after > 0 && before > 0) throw new BadRequestError('Cannot request logs before and after the timestamp');
  if (timestamp <= 0) {
    if (after > 0) throw new BadRequestError('Timestamp is required when requesting logs after the timestamp');
    return ring.lastLines(before > 0 ? before : DEFAULT_LINES);
  }
  if (after > 0) return ring.linesAfter(timestamp, after);
  return ring.linesBefore(timestamp, before > 0 ? before : DEFAULT_LINES);
}
