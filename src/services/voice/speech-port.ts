/**
 * The speech port: what a voice session needs from a provider, whichever serves. Audio is PCM16, mono, 24 kHz
 * both ways (OpenAI realtime's format, and what the client sends and plays).
 */

export const SAMPLE_RATE = 24_000;

/** What a transcriber tells its session, in order per utterance: started, partials, final. */
export interface TranscriptListener {
  speechStarted(): void;
  partial(itemId: string, delta: string): void;
  final(itemId: string, transcript: string): void;
  /** The upstream failed; the session reports it and the next utterance opens it again. */
  failed(error: Error): void;
}

/** One session's speech-to-text stream. */
export interface Transcriber {
  append(pcm: Buffer): void;
  /** The client says the utterance is over (push-to-talk). */
  commit(): void;
  /** Ends every upstream connection and request of this transcriber. */
  close(): void;
}

export interface SttProvider {
  open(key: string, listener: TranscriptListener): Transcriber;
}

export interface SpeakOptions {
  key: string;
  voice?: string;
  signal: AbortSignal;
}

export interface TtsProvider {
  /** The speech of one piece of text, as PCM chunks while the provider streams them. */
  speak(text: string, options: SpeakOptions): AsyncIterable<Uint8Array>;
  /** The global variable holding this provider's key. */
  readonly keyName: string;
}

/** An upstream's refusal, with enough of its answer to tell the user why. */
export class UpstreamError extends Error {
  override name = 'UpstreamError';
}
