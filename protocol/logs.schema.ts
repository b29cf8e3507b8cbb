/** /logs and /logs-stream (Langflow's log router): recent log lines keyed by their millisecond timestamp. */
import { z } from 'zod';
import { QueryInt } from './common.schema.js';

export const LogsQuery = z.object({
  lines_before: QueryInt.default(0).describe('How many lines before the timestamp (or before the end)'),
  lines_after: QueryInt.default(0).describe('How many lines from the timestamp on'),
  timestamp: QueryInt.default(0).describe('Epoch milliseconds'),
});

export const LogLines = z.record(z.string(), z.string()).meta({ id: 'LogLines' });
