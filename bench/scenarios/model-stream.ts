/**
 * A streamed model reply through the engine (ChatInput -> Language Model -> ChatOutput, /api/v1/run?stream=true)
 * against reading the same local model server directly, in the same run: the engine's added latency to the first
 * token and its added cost per token. A bare uWS -> model proxy, measured alongside, shows what the extra hop alone
 * costs, so the table can tell the hop from the service's own work.
 */
import { framesOf } from '../support/frames.js';
import { modelStreamFlow } from '../support/model-flow.js';
import { startModelProxy } from '../support/model-proxy.js';
import { BENCH_API_KEY, startService } from '../support/processes.js';
import type { Row } from '../support/report.js';
import { median } from '../support/runs.js';
import { startStreamModelServer } from '../support/stream-model-server.js';

const TOKENS = 1000;
const WARMUPS = 5;
const RUNS = 40;

interface StreamTiming {
  /** Milliseconds from sending the request to the first frame holding a token. */
  firstMs: number;
  /** Milliseconds from sending the request to the frame that ends the stream. */
  totalMs: number;
  tokens: number;
}

/**
 * Sends one request and reads its stream frame by frame (both paths separate frames by a blank line), so both
 * sides pay the same reading cost; `isToken` and `isEnd` look at one frame's text.
 */
async function timeStream(url: string, init: RequestInit, isToken: (frame: string) => boolean, isEnd: (frame: string) => boolean): Promise<StreamTiming> {
  const started = performance.now();
  const res = await fetch(url, init);
  if (!res.ok || !res.body) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  let firstMs = NaN;
  let tokens = 0;
  for await (const frame of framesOf(res.body)) {
    if (isToken(frame)) {
      if (tokens++ === 0) firstMs = performance.now() - started;
    } else if (isEnd(frame)) {
      const totalMs = performance.now() - started;
      await res.body.cancel().catch(() => {});
      return { firstMs, totalMs, tokens };
    }
  }
  throw new Error(`${url}: the stream closed before its end frame (${tokens} tokens read)`);
}

type Path = () => Promise<StreamTiming>;

/**
 * Medians of first-token and total times per path over RUNS rounds, after WARMUPS. A round runs every path once,
 * so a noisy moment of the shared machine falls on all of them alike (measuring one path after another had the
 * direct baseline swing 3 -> 6 ms between runs); every run must carry all TOKENS.
 */
async function interleavedMedians<K extends string>(paths: Record<K, Path>): Promise<Record<K, { firstMs: number; totalMs: number }>> {
  const names = Object.keys(paths) as K[];
  for (let i = 0; i < WARMUPS; i++) for (const name of names) await paths[name]();
  const runs = Object.fromEntries(names.map((name) => [name, [] as StreamTiming[]])) as Record<K, StreamTiming[]>;
  for (let i = 0; i < RUNS; i++) for (const name of names) runs[name].push(await paths[name]());
  const medians = {} as Record<K, { firstMs: number; totalMs: number }>;
  for (const name of names) {
    const short = runs[name].find((r) => r.tokens !== TOKENS);
    if (short) throw new Error(`${name}: read ${short.tokens} tokens, expected ${TOKENS}`);
    medians[name] = { firstMs: median(runs[name].map((r) => r.firstMs)), totalMs: median(runs[name].map((r) => r.totalMs)) };
  }
  return medians;
}

/** Added latency to the first token and added cost per token of one path, against reading the model directly. */
function addedRows(path: string, timing: { firstMs: number; totalMs: number }, direct: { firstMs: number; totalMs: number }): Row[] {
  const firstAddedMs = timing.firstMs - direct.firstMs;
  const perTokenUs = ((timing.totalMs - timing.firstMs - (direct.totalMs - direct.firstMs)) / TOKENS) * 1000;
  const base = { scenario: 'model-stream', baselineName: 'model server read directly' };
  return [
    { scenario: 'model-stream', measure: `${path}: added latency to first token`, value: firstAddedMs, unit: 'ms', target: '< 1 ms', pass: firstAddedMs < 1 },
    { scenario: 'model-stream', measure: `${path}: added cost per token (${TOKENS} tokens)`, value: perTokenUs, unit: 'us', target: '< 20 us', pass: perTokenUs < 20 },
    { ...base, measure: `${path}: first token, median`, value: timing.firstMs, unit: 'ms', baseline: direct.firstMs },
    { ...base, measure: `${path}: whole stream (${TOKENS} tokens), median`, value: timing.totalMs, unit: 'ms', baseline: direct.totalMs, ratio: timing.totalMs / direct.totalMs },
  ];
}

export async function modelStreamScenario(_seconds: number): Promise<Row[]> {
  const model = await startStreamModelServer(TOKENS);
  const proxy = await startModelProxy(model.baseURL);
  const service = await startService({ OPENAI_BASE_URL: model.baseURL });
  try {
    const headers = { 'x-api-key': BENCH_API_KEY, 'content-type': 'application/json' };
    const created = await fetch(`${service.url}/api/v1/flows/`, { method: 'POST', headers, body: JSON.stringify(modelStreamFlow('bench model stream')) });
    if (created.status !== 201) throw new Error(`create the model flow: ${created.status} ${await created.text()}`);
    const { id } = (await created.json()) as { id: string };

    const chatRequest = (url: string) =>
      timeStream(
        url,
        { method: 'POST', headers: { authorization: 'Bearer sk-bench', 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'hi' }] }) },
        (frame) => frame.includes('"content":"tok '),
        (frame) => frame === 'data: [DONE]',
      );
    const { direct, proxied, engine, responses } = await interleavedMedians({
      direct: () => chatRequest(`${model.baseURL}/chat/completions`),
      proxied: () => chatRequest(`${proxy.url}/v1/chat/completions`),
      engine: () =>
        timeStream(
          `${service.url}/api/v1/run/${id}?stream=true`,
          { method: 'POST', headers, body: JSON.stringify({ input_value: 'hi' }) },
          (frame) => frame.startsWith('{"event":"token"'),
          (frame) => frame.startsWith('{"event":"end"'),
        ),
      // The responses stream frames each token as a spec chunk plus the typed delta event, in one write.
      responses: () =>
        timeStream(
          `${service.url}/api/v1/responses`,
          { method: 'POST', headers, body: JSON.stringify({ model: id, input: 'hi', stream: true }) },
          (frame) => frame.includes('"object":"response.chunk"') && frame.includes('"content":"tok '),
          (frame) => frame === 'data: [DONE]',
        ),
    });

    const floorMs = proxied.firstMs - direct.firstMs;
    const floor: Row = {
      scenario: 'model-stream',
      measure: 'bare uWS -> model proxy: added latency to first token (the floor of any service in between)',
      value: floorMs,
      unit: 'ms',
      baseline: direct.firstMs,
      baselineName: 'model server read directly',
    };
    const beyondFloor = (path: string, timing: { firstMs: number }): Row => ({
      scenario: 'model-stream',
      measure: `${path}: first token, added beyond the bare proxy (the service's own work)`,
      value: timing.firstMs - proxied.firstMs,
      unit: 'ms',
      baseline: proxied.firstMs,
      baselineName: 'bare uWS -> model proxy',
    });
    return [floor, ...addedRows('v1 run stream', engine, direct), beyondFloor('v1 run stream', engine), ...addedRows('responses stream', responses, direct), beyondFloor('responses stream', responses)];
  } finally {
    await proxy.stop();
    await service.stop();
    await model.close();
  }
}
