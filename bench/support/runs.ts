/** Talking to a running service: create a flow, and time runs one after another. */
import { BENCH_API_KEY } from './processes.js';

export const RUN_BODY = JSON.stringify({ input_value: 'hello', session_id: 'bench' });

const HEADERS = { 'x-api-key': BENCH_API_KEY, 'content-type': 'application/json' };

export async function createFlow(url: string, flow: unknown): Promise<string> {
  const res = await fetch(`${url}/api/v1/flows/`, { method: 'POST', headers: HEADERS, body: JSON.stringify(flow) });
  if (res.status !== 201) throw new Error(`create flow: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

/** One run's reply, failing loudly: a bench that times error replies measures nothing. */
export async function runOnce(url: string, body = RUN_BODY): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: HEADERS, body });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Mean milliseconds of `count` runs one after another (one connection, no queueing), after 50 warm-up runs. */
export async function sequentialMs(url: string, count: number, body = RUN_BODY): Promise<number> {
  for (let i = 0; i < 50; i++) await runOnce(url, body);
  const started = performance.now();
  for (let i = 0; i < count; i++) await runOnce(url, body);
  return (performance.now() - started) / count;
}

/**
 * Per-run milliseconds of several flows timed in alternating rounds of `perRound` sequential runs each (after a
 * warm-up round), so drift on the shared machine hits every flow alike; each flow's figure is its median round.
 */
export async function alternatingMs(urls: string[], rounds: number, perRound: number, body = RUN_BODY): Promise<number[]> {
  const means: number[][] = urls.map(() => []);
  for (const url of urls) for (let i = 0; i < perRound; i++) await runOnce(url, body);
  for (let round = 0; round < rounds; round++) {
    for (const [index, url] of urls.entries()) {
      const started = performance.now();
      for (let i = 0; i < perRound; i++) await runOnce(url, body);
      means[index].push((performance.now() - started) / perRound);
    }
  }
  return means.map(median);
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
