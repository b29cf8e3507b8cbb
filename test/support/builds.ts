/** Helpers of the build API tests: start a build, read its NDJSON events (checking Langflow's framing). */
import type { TestServer } from './server.js';

export interface BuildEvent {
  event: string;
  data: any;
}

export function postBuild(server: TestServer, flowId: string, body: Record<string, unknown> = {}, query = '', key?: string | null): Promise<Response> {
  return server.request(`/api/v1/build/${flowId}/flow${query}`, { method: 'POST', json: body, key });
}

export async function startBuild(server: TestServer, flowId: string, body: Record<string, unknown> = {}, query = ''): Promise<string> {
  const res = await postBuild(server, flowId, body, query);
  if (res.status !== 200) throw new Error(`build: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { job_id: string }).job_id;
}

export function getEvents(server: TestServer, jobId: string, query = '', key?: string | null): Promise<Response> {
  return server.request(`/api/v1/build/${jobId}/events${query}`, { key });
}

/**
 * Parses an NDJSON body in Langflow's framing: each event one JSON object on its own line, followed by an empty
 * line. Throws when the framing is not that (a line that is not JSON, two objects without a blank line between).
 */
export function parseNdjson(text: string): BuildEvent[] {
  const events: BuildEvent[] = [];
  for (const chunk of text.split('\n\n')) {
    const line = chunk.replace(/^\n+/, '');
    if (line === '') continue;
    if (line.includes('\n')) throw new Error(`two events without a blank line between: ${JSON.stringify(chunk.slice(0, 200))}`);
    events.push(JSON.parse(line) as BuildEvent);
  }
  return events;
}

/** Reads an NDJSON reply to its end; `onEvent` sees each event as it arrives (return true to stop reading). */
export async function readBuildStream(res: Response, onEvent?: (event: BuildEvent) => boolean | void): Promise<BuildEvent[]> {
  const events: BuildEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = res.body!.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const [event] = parseNdjson(buffer.slice(0, cut + 2));
      buffer = buffer.slice(cut + 2);
      if (!event) continue;
      events.push(event);
      if (onEvent?.(event)) {
        await reader.cancel();
        return events;
      }
    }
  }
  if (buffer.trim() !== '') throw new Error(`stream ended mid-event: ${JSON.stringify(buffer.slice(0, 200))}`);
  return events;
}

/** Every event of a build, read as a stream to its end. */
export async function buildEvents(server: TestServer, jobId: string, query = ''): Promise<BuildEvent[]> {
  const res = await getEvents(server, jobId, query);
  if (res.status !== 200) throw new Error(`events: ${res.status} ${await res.text()}`);
  return readBuildStream(res);
}

export const kinds = (events: BuildEvent[]) => events.map((e) => e.event);
