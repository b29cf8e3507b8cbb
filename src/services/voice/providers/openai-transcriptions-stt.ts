/**
 * Speech to text through any OpenAI-compatible `/v1/audio/transcriptions` (faster-whisper, LocalAI, whisper.cpp
 * servers): our energy VAD cuts utterances, each is posted as a WAV file, and its text is the final transcript.
 * Utterances are transcribed one at a time, in order.
 */
import { randomUUID } from 'node:crypto';
import { EnergyVad } from '../energy-vad.js';
import { openaiBase } from '../provider-urls.js';
import { UpstreamError, type SttProvider, type Transcriber, type TranscriptListener } from '../speech-port.js';
import { wavOf } from '../wav.js';

const MODEL = 'whisper-1';
/** Utterances waiting for the server (each at most a minute of audio); past it a new one is dropped and said so. */
const WAITING_MAX = 4;

class FileTranscriber implements Transcriber {
  readonly #vad: EnergyVad;
  readonly #abort = new AbortController();
  #queue: Promise<void> = Promise.resolve();
  #waiting = 0;

  constructor(
    private readonly key: string,
    private readonly listener: TranscriptListener,
  ) {
    this.#vad = new EnergyVad({ started: () => listener.speechStarted(), ended: (utterance) => this.#transcribe(utterance) });
  }

  append(pcm: Buffer): void {
    this.#vad.push(pcm);
  }

  commit(): void {
    this.#vad.flush();
  }

  close(): void {
    this.#abort.abort();
  }

  #transcribe(utterance: Buffer): void {
    const itemId = `item_${randomUUID()}`;
    if (this.#waiting >= WAITING_MAX) return this.listener.failed(new UpstreamError('the transcription server is behind: an utterance was dropped'));
    this.#waiting++;
    this.#queue = this.#queue.then(async () => {
      if (this.#abort.signal.aborted) return;
      try {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(wavOf(utterance))], { type: 'audio/wav' }), 'utterance.wav');
        form.append('model', MODEL);
        const response = await fetch(`${openaiBase()}/audio/transcriptions`, { method: 'POST', headers: { authorization: `Bearer ${this.key}` }, body: form, signal: this.#abort.signal });
        if (!response.ok) throw new UpstreamError(`the transcription server answered ${response.status}`);
        const text = String(((await response.json()) as { text?: unknown }).text ?? '').trim();
        if (text) this.listener.final(itemId, text);
      } catch (error) {
        if (!this.#abort.signal.aborted) this.listener.failed(error instanceof UpstreamError ? error : new UpstreamError(`the transcription server failed: ${(error as Error).message}`));
      } finally {
        this.#waiting--;
      }
    });
  }
}

export const openaiTranscriptions: SttProvider = {
  open: (key, listener) => new FileTranscriber(key, listener),
};
