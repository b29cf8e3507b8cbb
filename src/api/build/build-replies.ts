/**
 * How a build's events reach an HTTP caller, in Langflow's framing (application/x-ndjson: one JSON object per event,
 * a blank line after each): followed until the build ends (streaming, direct), a poll's batch (Langflow joins its
 * events with one more newline), or everything so far as one JSON array (`stream=false`).
 */
import { FramePipe } from '../../edge/frame-pipe.js';
import { Reply } from '../../edge/reply.js';
import { buildFrame } from '../../langflow/build-events.js';
import type { LogEntry, LogWatcher } from '../../runs/run-log.js';

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

export function ndjsonBatch(entries: readonly LogEntry[]): Reply {
  return Reply.bytes(entries.map((entry) => buildFrame(entry.event, entry.data)).join('\n'), NDJSON);
}

export function eventsJson(entries: readonly LogEntry[]): Reply {
  return Reply.json(entries.map(({ event, data }) => ({ event, data })));
}
