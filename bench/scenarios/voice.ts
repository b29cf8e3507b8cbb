/**
 * The voice WebSocket (flow_tts) against local fake providers (bench/support/voice-fakes.ts):
 * - latency: from the final transcript reaching the client to the first audio byte reaching it, against the
 *   providers' own latency measured in the same run from this process (the chat model's stream up to its first
 *   sentence, then the speech server's first bytes: the two calls a turn makes before it can speak), alternating
 *   rounds so both see the same machine. What the service adds is the difference of the medians.
 * - memory: 200 sessions held open and idle (authenticated, no audio yet), RSS per session from /proc.
 */
import WebSocket from 'ws';
import { modelStreamFlow } from '../support/model-flow.js';
import { BENCH_API_KEY, startService } from '../support/processes.js';
import { kb, memoryOf } from '../support/proc.js';
import type { Row } from '../support/report.js';
import { createFlow, median } from '../support/runs.js';
import { startVoiceFakes } from '../support/voice-fakes.js';

const ROUNDS = 60;
const WARMUP = 15;
const SESSIONS = 200;
const TARGET_ADDED_MS = 5;
const TARGET_SESSION_KB = 64;

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The providers' own latency: the model up to its first complete sentence, then the speech server's first bytes. */
async function directMs(baseURL: string): Promise<number> {
  const started = performance.now();
  const chat = await fetch(`${baseURL}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk' }, body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'bench question' }] }) });
  let seen = '';
  for await (const chunk of chat.body as unknown as AsyncIterable<Uint8Array>) {
    seen += Buffer.from(chunk).toString();
    if (seen.includes('". "')) break;
  }
  const speech = await fetch(`${baseURL}/audio/speech`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input: 'Hello there.', voice: 'echo', response_format: 'pcm' }) });
  const reader = speech.body!.getReader();
  await reader.read();
  const elapsed = performance.now() - started;
  await reader.cancel();
  return elapsed;
}

/** One voice session that answers `turnMs()`: commit, then the time from the transcript to the first audio. */
async function voiceSession(url: string): Promise<{ turnMs(): Promise<number>; isOpen(): boolean; close(): void }> {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  // Every event is kept with its arrival time: several can arrive in one read, before a waiter for the next is set.
  const events: { type: string; at: number }[] = [];
  let cursor = 0;
  let wake: (() => void) | undefined;
  ws.on('message', (data) => {
    events.push({ type: JSON.parse(String(data)).type, at: performance.now() });
    wake?.();
  });
  const next = async (type: string): Promise<number> => {
    for (;;) {
      for (; cursor < events.length; cursor++) {
        if (events[cursor].type === type) return events[cursor++].at;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
  return {
    async turnMs() {
      const transcript = next('conversation.item.input_audio_transcription.completed');
      ws.send('{"type":"input_audio_buffer.commit"}');
      const from = await transcript;
      const audio = await next('response.audio.delta');
      await next('response.done');
      return audio - from;
    },
    // A refused session (credentials, flow, key) is closed by the service: open after the settle means admitted.
    isOpen: () => ws.readyState === WebSocket.OPEN,
    close: () => ws.close(),
  };
}

export async function voiceScenario(): Promise<Row[]> {
  const fakes = await startVoiceFakes();
  const service = await startService({ OPENAI_BASE_URL: fakes.baseURL, FLOWSVC_FALLBACK_TO_ENV_VAR: 'false' });
  try {
    const id = await createFlow(service.url, modelStreamFlow('bench voice'));
    const stored = await fetch(`${service.url}/api/v1/variables/`, { method: 'POST', headers: { 'x-api-key': BENCH_API_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'OPENAI_API_KEY', value: 'sk-bench', default_fields: [] }) });
    if (stored.status !== 201) throw new Error(`voice bench: storing the key answered ${stored.status}`);
    const url = `${service.url.replace(/^http/, 'ws')}/api/v1/voice/ws/flow_tts/${id}`;

    const session = await voiceSession(`${url}/bench-latency?x-api-key=${BENCH_API_KEY}`);
    const voice: number[] = [];
    const direct: number[] = [];
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      // Which goes first alternates: neither always runs right after the other warmed the machine.
      let voiceRound: number;
      let directRound: number;
      if (round % 2) {
        voiceRound = await session.turnMs();
        directRound = await directMs(fakes.baseURL);
      } else {
        directRound = await directMs(fakes.baseURL);
        voiceRound = await session.turnMs();
      }
      if (round >= WARMUP) {
        voice.push(voiceRound);
        direct.push(directRound);
      }
    }
    session.close();
    const voiceMs = median(voice);
    const directMedian = median(direct);

    const pid = service.child.pid!;
    await settle(1000);
    const before = memoryOf(pid);
    const idle = await Promise.all(Array.from({ length: SESSIONS }, (_, i) => voiceSession(`${url}/bench-idle-${i}?x-api-key=${BENCH_API_KEY}`)));
    await settle(1500);
    const during = memoryOf(pid);
    const held = idle.filter((s) => s.isOpen()).length;
    idle.forEach((s) => s.close());
    const perSessionKb = kb(during.rss - before.rss) / SESSIONS;

    const scenario = 'voice';
    const added = voiceMs - directMedian;
    return [
      { scenario, measure: 'final transcript -> first audio byte at the client (median)', value: voiceMs, unit: 'ms', baseline: directMedian, baselineName: 'the providers called directly', ratio: voiceMs / directMedian },
      { scenario, measure: 'what the service adds to the providers\' latency', value: added, unit: 'ms', target: `< ${TARGET_ADDED_MS} ms`, pass: added < TARGET_ADDED_MS },
      { scenario, measure: 'idle voice sessions admitted and held open', value: held, unit: 'sessions', target: `${SESSIONS}`, pass: held === SESSIONS },
      { scenario, measure: `RSS per idle voice session (${SESSIONS} held)`, value: perSessionKb, unit: 'KB', target: `<= ${TARGET_SESSION_KB} KB`, pass: perSessionKb <= TARGET_SESSION_KB },
      { scenario, measure: 'anonymous RSS per idle voice session', value: kb(during.anon - before.anon) / SESSIONS, unit: 'KB' },
    ];
  } finally {
    await service.stop();
    await fakes.close();
  }
}
