/**
 * One spoken answer: a run of the flow with the transcript as its chat input (an adapter over Runs, like
 * /api/v1/run with stream=true), its events sent as `flow.build.progress`, and its answer spoken sentence by
 * sentence as the tokens arrive. Ends with `response.audio.done` and `response.done`. Cancelling (barge-in, the
 * client gone) cancels the run and aborts the speech request under way.
 */
import { randomUUID } from 'node:crypto';
import type { ResponseStatus, ServerFrame } from '../../../protocol/voice.schema.js';
import type { EdgeSocket } from '../../edge/socket-route.js';
import { answerPiece, errorFrame, progressFrame } from '../../langflow/voice-events.js';
import { failureError } from '../../runs/failure-table.js';
import type { LiveRun } from '../../runs/live-run.js';
import type { BuildEnd } from '../builds/build-run.js';
import type { CancelReason } from '../../runs/run-failure.js';
import type { Runs } from '../../runs/run-lifecycle.js';
import type { PreparedRun } from '../flow-runner.js';
import { SentenceSplitter } from './sentence-splitter.js';
import type { TtsProvider } from './speech-port.js';
import { startVoiceRun } from './voice-run.js';

export interface TurnSpeech {
  tts: TtsProvider;
  key: string;
  voice?: string;
}

export class VoiceTurn {
  readonly id = `resp_${randomUUID()}`;
  readonly #abort = new AbortController();
  readonly #splitter = new SentenceSplitter();
  /** Messages whose tokens were spoken: their whole text, when it comes, is not spoken again. */
  readonly #streamed = new Set<string>();
  #speech: Promise<void> = Promise.resolve();
  #speechFailed = false;
  #live: LiveRun<BuildEnd> | undefined;
  /** Settles once the turn has said its last frame. */
  readonly done: Promise<void>;

  constructor(
    private readonly socket: EdgeSocket,
    runs: Runs,
    run: PreparedRun,
    private readonly speech: TurnSpeech,
  ) {
    const live = startVoiceRun(runs, run, (event, data) => this.#progress(event, data));
    this.#live = live;
    this.done = live.answer.then(
      (result) => this.#finish(result),
      () => this.#finish(undefined),
    );
  }

  cancel(reason: CancelReason): void {
    this.#abort.abort();
    this.#live?.cancel(reason);
  }

  #send(frame: ServerFrame): boolean {
    return this.socket.send(JSON.stringify(frame));
  }

  #progress(event: string, data: unknown): void {
    this.#send(progressFrame(event, data));
    const piece = answerPiece(event, data);
    if (!piece) return;
    if (piece.kind === 'token') {
      this.#streamed.add(piece.messageId);
      this.#say(this.#splitter.push(piece.text));
    } else if (piece.text && !this.#streamed.has(piece.messageId)) {
      this.#say(this.#splitter.push(`${piece.text}\n`));
    }
  }

  #say(sentences: string[]): void {
    for (const sentence of sentences) this.#speech = this.#speech.then(() => this.#speak(sentence));
  }

  /** Streams one sentence's audio; a slow client pauses the reading of the speech server's reply (backpressure). */
  async #speak(sentence: string): Promise<void> {
    const signal = this.#abort.signal;
    if (signal.aborted || this.#speechFailed || !this.socket.isOpen) return;
    try {
      for await (const chunk of this.speech.tts.speak(sentence, { key: this.speech.key, voice: this.speech.voice, signal })) {
        if (signal.aborted || !this.socket.isOpen) return;
        const room = this.#send({ type: 'response.audio.delta', response_id: this.id, delta: Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('base64') });
        if (!room) await this.socket.drained();
      }
    } catch (error) {
      if (signal.aborted) return;
      this.#speechFailed = true;
      this.#send(errorFrame('tts_failed', (error as Error).message));
    }
  }

  async #finish(result: BuildEnd | undefined): Promise<void> {
    this.#say([this.#splitter.end()].filter((rest): rest is string => rest !== undefined));
    await this.#speech;
    let status: ResponseStatus = 'completed';
    if (this.#abort.signal.aborted || result?.failure?.kind === 'cancelled') status = 'cancelled';
    else if (!result || result.failure) {
      status = 'failed';
      this.#send(errorFrame('flow_failed', result?.failure ? failureError(result.failure).message : 'The flow could not run'));
    } else if (this.#speechFailed) status = 'failed';
    if (!this.socket.isOpen) return;
    this.#send({ type: 'response.audio.done', response_id: this.id });
    this.#send({ type: 'response.done', response: { id: this.id, status } });
  }
}
