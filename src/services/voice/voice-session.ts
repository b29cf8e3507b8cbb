/**
 * One flow_tts WebSocket: authenticates, finds the flow, then turns the client's audio into transcripts (the
 * session's STT provider) and each final transcript into a spoken answer (voice-turn.ts). Speech that starts while
 * an answer is under way cancels it (barge-in); the client going away cancels everything it started. Frames are
 * validated against protocol/voice.schema.ts; a bad one gets an error event and the session goes on.
 */
import { ClientFrame, type ServerFrame, type SttProviderName, type TtsProviderName } from '../../../protocol/voice.schema.js';
import type { Credentials, Principal } from '../../auth/principal.js';
import type { EdgeSocket, SocketListener } from '../../edge/socket-route.js';
import { errorFrame, VOICE_MESSAGES } from '../../langflow/voice-events.js';
import type { Logger } from '../../logger.js';
import type { Runs } from '../../runs/run-lifecycle.js';
import type { FlowRecord } from '../../../protocol/flow.schema.js';
import type { FlowRunner } from '../flow-runner.js';
import { parseFrame } from './client-frames.js';
import { STT_KEY_NAME, STT_PROVIDERS, TTS_PROVIDERS } from './speech-providers.js';
import type { Transcriber, TranscriptListener } from './speech-port.js';
import type { VoiceKeyResolver } from './voice-keys.js';
import { VoiceTurn } from './voice-turn.js';

export interface VoiceDeps {
  /** Resolves the caller, or rejects (the session then closes). */
  authenticate(credentials: Credentials): Promise<Principal | null>;
  findFlow(userId: string, flowId: string): Promise<FlowRecord | undefined>;
  runner: Pick<FlowRunner, 'prepare'>;
  runs: Runs;
  key: VoiceKeyResolver;
  defaults: { stt: SttProviderName; tts: TtsProviderName };
  logger: Logger;
}

export interface VoiceRequest {
  flowId: string;
  sessionId?: string;
  credentials: Credentials;
  requestVariables: Record<string, string>;
}

/** Close code of a session refused (auth, flow, key): a policy violation, after an error event saying which. */
export const CLOSE_REFUSED = 1008;
/** Characters of frames held while the session opens (auth, flow, key); past it the oldest go. */
const EARLY_CHARS_MAX = 1 << 20;

export class VoiceSession implements SocketListener {
  #ready = false;
  #closed = false;
  #early: { frame: ClientFrame; chars: number }[] = [];
  #earlyChars = 0;
  #userId = '';
  #flow: FlowRecord | undefined;
  #stt: SttProviderName;
  #tts: TtsProviderName;
  #voice: string | undefined;
  #elevenLabsVoice: string | undefined;
  #transcriber: Transcriber | undefined;
  #turn: VoiceTurn | undefined;

  constructor(
    private readonly deps: VoiceDeps,
    private readonly socket: EdgeSocket,
    private readonly request: VoiceRequest,
  ) {
    this.#stt = deps.defaults.stt;
    this.#tts = deps.defaults.tts;
    this.#open().catch((error: unknown) => {
      deps.logger.error({ err: error }, 'voice session could not open');
      this.#refuse(errorFrame('flow_failed', 'The voice session could not start'));
    });
  }

  message(text: string, binary: boolean): void {
    if (this.#closed) return;
    const parsed = parseFrame(text, binary);
    if (!parsed.success) return void this.#send(errorFrame('invalid_frame', parsed.message));
    if (this.#ready) return this.#handle(parsed.data);
    this.#early.push({ frame: parsed.data, chars: text.length });
    this.#earlyChars += text.length;
    while (this.#earlyChars > EARLY_CHARS_MAX && this.#early.length > 1) this.#earlyChars -= this.#early.shift()!.chars;
  }

  closed(): void {
    this.#closed = true;
    this.#early = [];
    this.#transcriber?.close();
    this.#turn?.cancel('client_gone');
  }

  async #open(): Promise<void> {
    const principal = await this.deps.authenticate(this.request.credentials).catch(() => null);
    if (!principal) return this.#refuse(errorFrame('langflow_auth', VOICE_MESSAGES.auth));
    this.#userId = principal.userId;
    this.#flow = await this.deps.findFlow(principal.userId, this.request.flowId);
    // Another user's flow is not found either: whether it exists is not the caller's to learn.
    if (!this.#flow) return this.#refuse(errorFrame('flow_not_found', VOICE_MESSAGES.flowNotFound));
    const key = await this.#key(STT_KEY_NAME);
    if (!key) return this.#refuse(errorFrame('api_key_missing', VOICE_MESSAGES.keyMissing(STT_KEY_NAME), STT_KEY_NAME));
    if (this.#closed) return;
    this.#ready = true;
    this.#earlyChars = 0;
    for (const { frame } of this.#early.splice(0)) this.#handle(frame);
  }

  #key(name: string): Promise<string | undefined> {
    return this.deps.key(this.#userId, name, this.request.requestVariables);
  }

  #refuse(frame: ServerFrame): void {
    if (this.#closed) return;
    this.#send(frame);
    this.socket.close(CLOSE_REFUSED, frame.type === 'error' ? frame.code : 'refused');
  }

  #send(frame: ServerFrame): boolean {
    return this.socket.send(JSON.stringify(frame));
  }

  #handle(frame: ClientFrame): void {
    switch (frame.type) {
      case 'input_audio_buffer.append':
        if (frame.audio) void this.#transcriberOf().then((transcriber) => transcriber?.append(Buffer.from(frame.audio, 'base64')));
        return;
      case 'input_audio_buffer.commit':
        void this.#transcriberOf().then((transcriber) => transcriber?.commit());
        return;
      case 'voice.settings':
        this.#voice = frame.voice ?? this.#voice;
        this.#tts = frame.tts ?? this.#tts;
        if (frame.stt && frame.stt !== this.#stt) {
          this.#stt = frame.stt;
          this.#transcriber?.close();
          this.#transcriber = undefined;
        }
        return;
      case 'langflow.elevenlabs.config':
        this.#tts = frame.enabled ? 'elevenlabs' : this.deps.defaults.tts === 'elevenlabs' ? 'openai' : this.deps.defaults.tts;
        this.#elevenLabsVoice = frame.voice_id ?? this.#elevenLabsVoice;
        return;
    }
  }

  /** The transcriber, opened on the first audio (an idle session holds no upstream connection). */
  #opening: Promise<Transcriber | undefined> | undefined;
  #transcriberOf(): Promise<Transcriber | undefined> {
    if (this.#transcriber) return Promise.resolve(this.#transcriber);
    this.#opening ??= this.#key(STT_KEY_NAME).then((key) => {
      this.#opening = undefined;
      if (this.#closed || !key) return undefined;
      this.#transcriber = STT_PROVIDERS[this.#stt].open(key, this.#listener);
      return this.#transcriber;
    });
    return this.#opening;
  }

  readonly #listener: TranscriptListener = {
    speechStarted: () => {
      this.#send({ type: 'input_audio_buffer.speech_started' });
      // Barge-in: the user speaks over the answer, so the answer (its run and its speech) stops.
      this.#turn?.cancel('stop');
    },
    partial: (itemId, delta) => void this.#send({ type: 'conversation.item.input_audio_transcription.delta', item_id: itemId, delta }),
    final: (itemId, transcript) => {
      this.#send({ type: 'conversation.item.input_audio_transcription.completed', item_id: itemId, transcript });
      if (transcript.trim()) void this.#answer(transcript.trim());
    },
    failed: (error) => void this.#send(errorFrame('stt_failed', error.message)),
  };

  async #answer(transcript: string): Promise<void> {
    this.#turn?.cancel('stop');
    const tts = TTS_PROVIDERS[this.#tts];
    const key = await this.#key(tts.keyName);
    if (this.#closed) return;
    if (!key) return void this.#send(errorFrame('api_key_missing', VOICE_MESSAGES.keyMissing(tts.keyName), tts.keyName));
    let run;
    try {
      run = this.deps.runner.prepare({
        flow: this.#flow!,
        userId: this.#userId,
        inputValue: transcript,
        inputType: 'chat',
        outputType: 'chat',
        sessionId: this.request.sessionId,
        requestVariables: this.request.requestVariables,
        stream: true,
      });
    } catch (error) {
      return void this.#send(errorFrame('flow_failed', (error as Error).message));
    }
    const voice = this.#tts === 'elevenlabs' ? this.#elevenLabsVoice : this.#voice;
    const turn = new VoiceTurn(this.socket, this.deps.runs, run, { tts, key, voice });
    this.#turn = turn;
    void turn.done.finally(() => {
      if (this.#turn === turn) this.#turn = undefined;
    });
  }
}
