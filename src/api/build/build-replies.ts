/**
 * How a build's events reach an HTTP caller, in Langflow's framing (application/x-ndjson: one JSON object per event,
 * a blank line after each): followed until the build ends (streaming, direct), a poll's batch (Langflow joins its
 * events with one more newline), or everything so far as one JSON array (`stream=false`).
 */
import type { BuildEventsQuery } from '../../../protocol/build.schema.js';
import { FramePipe } from '../../edge/frame-pipe.js';
import { Reply } from '../../edge/reply.js';
import type { ClientWatch } from '../../edge/route.js';
import { buildFrame } from '../../langflow/build-events.js';
import type { LogEntry, LogWatcher } from '../../runs/run-log.js';
import type { BuildJob, BuildJobs } from '../../services/builds/build-jobs.js';

const NDJSON = 'application/x-ndjson';

/** Follows a log: `attach` subscribes and returns the unsubscribe; `onGone` runs if the client leaves first. */
export function ndjsonStream(attach: (watcher: LogWatcher) => () => void, onGone?: () => void): Reply {
  return Reply.stream(
    NDJSON,
    async (sink) => {
      const pipe = new FramePipe();
      const detach = attach({ onEvent: (entry) => pipe.push(buildFrame(entry.event, entry.data)), onEnd: () => pipe.end() });
      if (onGone) sink.onClientGone(onGone);
      try {
        await pipe.drain(sink);
      } finally {
        detach();
      }
    },
    { 'x-accel-buffering': 'no' },
  );
}

function ndjsonBatch(entries: readonly LogEntry[]): Reply {
  return Reply.bytes(entries.map((entry) => buildFrame(entry.event, entry.data)).join('\n'), NDJSON);
}

/** GET .../{job_id}/events: as the query asks. A reader leaving never stops the build: it may come back and continue. */
export async function eventsReply(builds: BuildJobs, job: BuildJob, query: BuildEventsQuery, request: ClientWatch): Promise<Reply> {
  if (query.stream === false) return Reply.json(builds.events(job).map(({ event, data }) => ({ event, data })));
  if (query.event_delivery === 'polling') return ndjsonBatch(await builds.poll(job, (stop) => request.onClientGone(stop)));
  return ndjsonStream((watcher) => builds.watch(job, query.sequence_id ?? 0, watcher));
}

/** POST .../{job_id}/cancel: the run stops; Langflow's answer (a finished build counts as cancelled). */
export async function cancelReply(builds: BuildJobs, job: BuildJob): Promise<{ success: boolean; message: string }> {
  await builds.cancel(job);
  return { success: true, message: 'Flow build cancelled successfully' };
}
