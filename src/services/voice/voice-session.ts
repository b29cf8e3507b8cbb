/**
 * One flow_tts WebSocket: the client's audio becomes transcripts (the session's STT provider) and each final
 * transcript a spoken answer (voice-turn.ts). Speech that starts while an answer is under way cancels it
 * (barge-in); the client going away cancels everything it started. Admission and frames: voice-socket-session.ts.
 */
import type { SttProviderName, TtsProviderName } from '../../../protocol/voice.schema.js';
import type { EdgeSocket } from '../../edge/socket-route.js';
import { errorFrame, VOICE_MESSAGES } from '../../langflow/voice-events.js';
import { STT_PROVIDERS, TTS_PROVIDERS } from './speech-providers.js';
import type { Transcriber, TranscriptListener } from './speech-port.js';
import { prepareVoiceRun } from './voice-run.js';
import { OPENAI_KEY_NAME, VoiceSocketSession, type SessionFrame, type VoiceDeps, type VoiceRequest } from './voice-socket-session.js';
import { VoiceTurn } from './voice-turn.js';

export class VoiceSession extends VoiceSocketSession {
  #stt: SttProviderName;
  #tts: TtsProviderName;
  #voice: string | undefined;
  #elevenLabsVoice: string | undefined;
  #transcriber: Transcriber | undefined;
  #opening: Promise<Transcriber | undefined> | undefined;
  #turn: VoiceTurn | undefined;

  constructor(deps: VoiceDeps, socket: EdgeSocket, request: VoiceRequest) {
    super(deps, socket, request);
    this.#stt = deps.defaults.stt;
    this.#tts = deps.defaults.tts;
  }

  protected opened(): void {}

  protected ended(): void {
    this.#transcriber?.close();
    this.#turn?.cancel('client_gone');
  }

  protected handle(frame: SessionFrame): void {
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
  #transcriberOf(): Promise<Transcriber | undefined> {
    if (this.#transcriber) return Promise.resolve(this.#transcriber);
    this.#opening ??= this.key(OPENAI_KEY_NAME).then((key) => {
      this.#opening = undefined;
      if (this.isClosed || !key) return undefined;
      this.#transcriber = STT_PROVIDERS[this.#stt].open(key, this.#listener);
      return this.#transcriber;
    });
    return this.#opening;
  }

  readonly #listener: TranscriptListener = {
    speechStarted: () => {
      this.send({ type: 'input_audio_buffer.speech_started' });
      // Barge-in: the user speaks over the answer, so the answer (its run and its speech) stops.
      this.#turn?.cancel('stop');
    },
    partial: (itemId, delta) => void this.send({ type: 'conversation.item.input_audio_transcription.delta', item_id: itemId, delta }),
    final: (itemId, transcript) => {
      this.send({ type: 'conversation.item.input_audio_transcription.completed', item_id: itemId, transcript });
      if (transcript.trim()) void this.#answer(transcript.trim());
    },
    failed: (error) => void this.send(errorFrame('stt_failed', error.message)),
  };

  async #answer(transcript: string): Promise<void> {
    this.#turn?.cancel('stop');
    const tts = TTS_PROVIDERS[this.#tts];
    const key = await this.key(tts.keyName);
    if (this.isClosed) return;
    if (!key) return void this.send(errorFrame('api_key_missing', VOICE_MESSAGES.keyMissing(tts.keyName), tts.keyName));
    let run;
    try {
      run = prepareVoiceRun(this.deps.runner, { flow: this.flow, userId: this.userId, input: transcript, sessionId: this.request.sessionId, requestVariables: this.request.requestVariables });
    } catch (error) {
      return void this.send(errorFrame('flow_failed', (error as Error).message));
    }
    const voice = this.#tts === 'elevenlabs' ? this.#elevenLabsVoice : this.#voice;
    const turn = new VoiceTurn(this.socket, this.deps.runs, run, { tts, key, voice });
    this.#turn = turn;
    void turn.done.finally(() => {
      if (this.#turn === turn) this.#turn = undefined;
    });
  }
}
