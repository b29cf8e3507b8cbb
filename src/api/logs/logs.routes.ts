/**
 * /logs and /logs-stream (also under /api): the service's recent log lines, for superusers only, served only when
 * FLOWSVC_ENABLE_LOG_RETRIEVAL is on (src/api/routes.ts). The stream sends each new line as `{timestamp: line}`
 * followed by a blank line, and `keepalive` when nothing was logged for a while, as Langflow does.
 */
import { LogLines, LogsQuery } from '../../../protocol/logs.schema.js';
import { FramePipe } from '../../edge/frame-pipe.js';
import { Reply } from '../../edge/reply.js';
import { defineRoute, type Route } from '../../edge/route.js';
import type { LogRing } from '../../observability/log-ring.js';
import { readLogs } from './log-reading.js';

const TAGS = ['Log'];
const KEEPALIVE_MS = 5_000;

export function logsRoutes(ring: LogRing): Route[] {
  return ['', '/api'].flatMap((prefix) => [
    defineRoute({
      method: 'GET',
      path: `${prefix}/logs`,
      summary: 'Recent log lines of the service, by timestamp (superuser)',
      tags: TAGS,
      auth: 'superuser',
      hidden: prefix !== '',
      query: LogsQuery,
      responses: { 200: { description: 'Log lines keyed by epoch milliseconds', schema: LogLines } },
      handler: ({ query }) => readLogs(ring, query),
    }),
    defineRoute({
      method: 'GET',
      path: `${prefix}/logs-stream`,
      summary: 'New log lines as they are written (superuser)',
      tags: TAGS,
      auth: 'superuser',
      hidden: prefix !== '',
      responses: { 200: { description: 'One `{timestamp: line}` object per line, a blank line after each', contentType: 'text/event-stream' } },
      handler: () => followLogs(ring),
    }),
  ]);
}

function followLogs(ring: LogRing): Reply {
  return Reply.stream('text/event-stream', async (sink) => {
    const pipe = new FramePipe();
    let quiet = true;
    const unfollow = ring.follow(
      (timestamp, line) => {
        quiet = false;
        pipe.push(`${JSON.stringify({ [timestamp]: line })}\n\n`);
      },
      () => pipe.end(),
    );
    const keepalive = setInterval(() => {
      if (quiet) pipe.push('keepalive\n\n');
      quiet = true;
    }, KEEPALIVE_MS);
    try {
      await pipe.drain(sink);
    } finally {
      clearInterval(keepalive);
      unfollow();
    }
  });
}
