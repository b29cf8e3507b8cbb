/**
 * The voice tests' world: one local "OpenAI" host (the model server, with the speech and transcription fakes on
 * the same host, as OPENAI_BASE_URL points them all there; ElevenLabs too through ELEVENLABS_BASE_URL), a real
 * service, the keys stored as the user's global variables, and a WebSocket client that waits for events.
 */
import WebSocket from 'ws';
import type { ConfigInput } from '../../src/config.js';
import { FakeSpeech } from './fake-speech.js';
import { FakeRealtimeModel } from './fake-realtime-model.js';
import { FakeTranscription } from './fake-transcription.js';
import { createFlow } from './flow-helpers.js';
import { chatModelFlow, HEADER_KEY, openaiModelTemplate } from './model-flows.js';
import { startModelServer, type ModelServer } from './model-server.js';
import { startTestServer, type TestServer } from './server.js';
import { silence, tone } from './audio-tone.js';

export interface VoiceStack {
  model: ModelServer;
  speech: FakeSpeech;
  transcription: FakeTranscription;
  realtimeModel: FakeRealtimeModel;
  server: TestServer;
  /** ws://host:port/api/v1/voice/ws/flow_tts */
  voiceUrl: string;
  storeVariable(name: string, value: string): Promise<void>;
  close(): Promise<void>;
}

export async function startVoiceStack(options: { keys?: boolean; config?: ConfigInput } = {}): Promise<VoiceStack> {
  const speech = new FakeSpeech();
  const transcription = new FakeTranscription();
  const realtimeModel = new FakeRealtimeModel();
  transcription.model = realtimeModel;
  const model = await startModelServer({ serve: (req, res) => speech.serve(req, res) || transcription.serve(req, res), attach: transcription.attach });
  process.env.OPENAI_BASE_URL = model.baseURL;
  process.env.ELEVENLABS_BASE_URL = model.url;
  const server = await startTestServer({ FALLBACK_TO_ENV_VAR: 'false', ...options.config });
  const storeVariable = async (name: string, value: string) => {
    const stored = await server.request('/api/v1/variables/', { method: 'POST', json: { name, value, default_fields: [] } });
    if (stored.status !== 201) throw new Error(`store ${name}: ${stored.status}`);
  };
  if (options.keys ?? true) {
    await storeVariable('OPENAI_API_KEY', 'sk-voice');
    // The test flows' model nodes read this one.
    await storeVariable(HEADER_KEY, 'sk-model');
  }
  return {
    model,
    speech,
    transcription,
    realtimeModel,
    server,
    voiceUrl: `${server.url.replace(/^http/, 'ws')}/api/v1/voice/ws/flow_tts`,
    storeVariable,
    async close() {
      await server.close();
      transcription.close();
      await model.close();
    },
  };
}

export async function flowId(stack: VoiceStack, body: Record<string, unknown>, key?: string): Promise<string> {
  return (await createFlow(stack.server, body, key)).id;
}

/** A client of the voice socket that keeps every event and waits for them in order. */
export class VoiceClient {
  readonly events: any[] = [];
  readonly ws: WebSocket;
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly opened: Promise<void>;
  #cursor = 0;
  #wake: (() => void) | undefined;

  constructor(url: string, headers: Record<string, string> = {}) {
    this.ws = new WebSocket(url, { headers });
    this.opened = new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
    this.ws.on('message', (data) => {
      this.events.push(JSON.parse(String(data)));
      this.#wake?.();
    });
    this.closed = new Promise((resolve) => this.ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
    void this.closed.then(() => this.#wake?.());
  }

  /** The next event of `type` after the last one waited for (events between are skipped, not lost: see `events`). */
  async next(type: string, match: (event: any) => boolean = () => true): Promise<any> {
    for (;;) {
      for (; this.#cursor < this.events.length; this.#cursor++) {
        const event = this.events[this.#cursor];
        if (event.type === type && match(event)) {
          this.#cursor++;
          return event;
        }
      }
      if (this.ws.readyState === WebSocket.CLOSED) throw new Error(`closed before a ${type} event; got ${this.events.map((e) => e.type).join(', ')}`);
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  audio(pcm: Buffer): void {
    this.send({ type: 'input_audio_buffer.append', audio: pcm.toString('base64') });
  }

  /** An utterance: 300 ms of tone in 100 ms chunks, then 400 ms of silence (the end of speech). */
  speak(): void {
    for (let i = 0; i < 3; i++) this.audio(tone(100));
    for (let i = 0; i < 4; i++) this.audio(silence(100));
  }

  close(): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.close();
    else this.ws.terminate();
  }

  /** A client once its socket is open (frames sent before would throw). */
  static async open(url: string, headers: Record<string, string> = {}): Promise<VoiceClient> {
    const client = new VoiceClient(url, headers);
    await client.opened;
    return client;
  }
}

/** A stack, a flow (a chat model flow unless given) and a client on it, all closed when the test ends. */
export async function voiceSession(
  t: { teardown(fn: () => unknown): void },
  options: { flow?: Record<string, unknown>; config?: ConfigInput; path?: string } = {},
): Promise<{ stack: VoiceStack; id: string; client: VoiceClient }> {
  const stack = await startVoiceStack({ config: options.config });
  t.teardown(() => stack.close());
  const id = await flowId(stack, options.flow ?? chatModelFlow('Voice chat', 'LanguageModelComponent', openaiModelTemplate()));
  const client = await VoiceClient.open(`${stack.voiceUrl}/${id}${options.path ?? ''}?x-api-key=${stack.server.apiKey}`);
  t.teardown(() => client.close());
  return { stack, id, client };
}
