/**
 * v2 background jobs as the benches drive them: submit one, poll until jobs are terminal, and follow a job's SSE
 * noting when each event arrived (the bench's clock, so two watchers in the bench compare on one clock).
 */
import { framesOf } from './frames.js';
import { BENCH_API_KEY } from './processes.js';

const HEADERS = { 'x-api-key': BENCH_API_KEY, 'content-type': 'application/json' };
const TERMINAL = new Set(['completed', 'failed', 'cancelled', 'timed_out']);

/** The stand-in model flows read their key from this global; the echo flow ignores it. */
const GLOBALS = { OPENAIKEY: 'sk-x' };

/** Submits a background job; `session` given, its messages go to that session (else the flow's default one). */
export async function submitJob(url: string, flowId: string, input: string, session?: string): Promise<string> {
  const inputs = { 'ChatInput-in.input_value': input, ...(session ? { 'ChatInput-in.session_id': session } : {}) };
  const res = await fetch(`${url}/api/v2/workflows`, { method: 'POST', headers: HEADERS, body: JSON.stringify({ flow_id: flowId, background: true, inputs, globals: GLOBALS }) });
  if (!res.ok) throw new Error(`submit: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { job_id: string }).job_id;
}

export async function jobStatus(url: string, jobId: string): Promise<string> {
  const res = await fetch(`${url}/api/v2/workflows?job_id=${jobId}`, { headers: HEADERS });
  if (!res.ok) throw new Error(`status of ${jobId}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { status: string }).status;
}

export const isTerminal = (status: string) => TERMINAL.has(status);

/**
 * Polls, one request at a time so the polling costs the services little, until every job reads terminal through
 * `url`: jobs start about in submission order, so it waits on the oldest not yet seen ended. Fails on a job that
 * did not complete.
 */
export async function untilAllTerminal(url: string, jobIds: string[], everyMs = 10): Promise<void> {
  for (const id of jobIds) {
    for (;;) {
      const status = await jobStatus(url, id);
      if (status === 'completed') break;
      if (isTerminal(status)) throw new Error(`job ${id} ended ${status}`);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }
}

export interface ArrivedEvent {
  id: number;
  event: string;
  /** performance.now() when its frame was read. */
  at: number;
  /** The job_status events' status, and the service's time of it (ms since the epoch). */
  status?: string;
  timestamp?: number;
}

/**
 * Follows a job's SSE from after `sequenceId` to its terminal status (or the stream's end), or, `tokens` given,
 * until that many token events arrived (a log still growing, read as far as it is known to go).
 */
export async function followJob(url: string, jobId: string, sequenceId = 0, tokens = Infinity): Promise<ArrivedEvent[]> {
  const res = await fetch(`${url}/api/v2/workflows?job_id=${jobId}&stream=true&sequence_id=${sequenceId}`, { headers: HEADERS });
  if (!res.ok || !res.body) throw new Error(`follow ${jobId}: ${res.status}`);
  const events: ArrivedEvent[] = [];
  let tokensSeen = 0;
  for await (const frame of framesOf(res.body)) {
    const at = performance.now();
    const id = Number(/^id: (\d+)/m.exec(frame)?.[1]);
    const event = /^event: (\S+)/m.exec(frame)?.[1] ?? 'message';
    const status = event === 'job_status' ? /"status":"(\w+)"/.exec(frame)?.[1] : undefined;
    const timestamp = status ? Date.parse(/"timestamp":"([^"]+)"/.exec(frame)?.[1] ?? '') : undefined;
    events.push({ id, event, at, status, timestamp });
    if (event === 'token') tokensSeen++;
    if ((status && isTerminal(status)) || tokensSeen >= tokens) {
      await res.body.cancel().catch(() => {});
      break;
    }
  }
  return events;
}

/** The value at quantile `q` (0..1) of `values`, nearest rank. */
export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
