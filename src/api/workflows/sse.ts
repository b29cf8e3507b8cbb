/**
 * Server-sent events for job logs: `id:` is the event's sequence number (so `Last-Event-ID` resumes), `event:`
 * its kind, `data:` its JSON. A frame is encoded once and shared by every watcher of the job; its data text is the
 * one the stored log is built from.
 */
import type { JobEvent } from '../../../protocol/job.schema.js';
import { FramePipe } from '../../edge/frame-pipe.js';
import { Reply } from '../../edge/reply.js';
import { dataJson } from '../../services/jobs/job-json.js';
import type { LogWatcher } from '../../runs/run-log.js';

/** Where an event keeps its encoded frame (a symbol-keyed slot, as its data text: see job-json.ts). */
const FRAME = Symbol('SSE frame');
type FrameHolder = JobEvent & { [FRAME]?: string };

export function sseFrame(event: JobEvent): string {
  const holder = event as FrameHolder;
  return (holder[FRAME] ??= `id: ${event.seq}\nevent: ${event.event}\ndata: ${dataJson(event)}\n\n`);
}

/**
 * An SSE reply that follows a log: `attach` subscribes the watcher and returns its unsubscribe function (or a
 * promise of it, when the log is read from the store first).
 */
export function sseReply(attach: (watcher: LogWatcher) => (() => void) | Promise<() => void>): Reply {
  return Reply.stream(
    'text/event-stream',
    async (sink) => {
      const pipe = new FramePipe();
      const detach = await attach({ onEvent: (event) => pipe.push(sseFrame(event)), onEnd: () => pipe.end() });
      try {
        await pipe.drain(sink);
      } finally {
        detach();
      }
    },
    { 'x-accel-buffering': 'no' },
  );
}
