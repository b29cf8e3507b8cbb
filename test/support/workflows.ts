/** Helpers for the v2 workflow API tests: requests, polling a job, and reading server-sent events. */
import { EventSourceParserStream } from 'eventsource-parser/stream';
import type { TestServer } from './server.js';

export interface SseEvent {
  id: number;
  event: string;
  data: any;
}

export function postWorkflow(server: TestServer, body: Record<string, unknown>, options: { key?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  return server.request('/api/v2/workflows', { method: 'POST', json: body, ...options });
}

export function getJob(server: TestServer, jobId: string, query = '', options: { key?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  return server.request(`/api/v2/workflows?job_id=${jobId}${query}`, options);
}

export function stopJob(server: TestServer, jobId: string, key?: string): Promise<Response> {
  return server.request('/api/v2/workflows/stop', { method: 'POST', json: { job_id: jobId }, key });
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled', 'timed_out', 'error']);

/** Polls until the job reaches a terminal status (or `until` accepts it); returns the last body. */
export async function waitForJob(server: TestServer, jobId: string, until: (body: any) => boolean = (b) => TERMINAL.has(b.status), timeoutMs = 20_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const body = await (await getJob(server, jobId)).json();
    if (until(body)) return body;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Every event of an SSE reply, parsed with eventsource-parser (data as JSON). */
export async function readSse(res: Response, onEvent?: (event: SseEvent) => void): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  const stream = res.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  for await (const message of stream) {
    const event = { id: Number(message.id), event: message.event ?? 'message', data: JSON.parse(message.data) };
    events.push(event);
    onEvent?.(event);
  }
  return events;
}
