/**
 * Voice-activity detection by frame energy, to cut utterances for transcription servers that take whole files:
 * speech starts after a few loud 20 ms frames, ends after a run of quiet ones; the utterance keeps a little of
 * what came before its start (the onset is often quiet).
 */
import { SAMPLE_RATE } from './speech-port.js';

const FRAME_SAMPLES = (SAMPLE_RATE * 20) / 1000;
/** RMS of a loud frame, in PCM16 units (about -36 dBFS). */
const LOUD_RMS = 500;
const START_FRAMES = 2;
/** 300 ms of quiet ends the utterance, as Langflow's server VAD. */
const END_FRAMES = 15;
/** 100 ms kept from before the start. */
const PAD_FRAMES = 5;
/** The longest utterance kept (60 s): past it, it is cut there. */
export const UTTERANCE_MAX_BYTES = SAMPLE_RATE * 2 * 60;

export interface VadListener {
  started(): void;
  ended(utterance: Buffer): void;
}

export class EnergyVad {
  #carry = Buffer.alloc(0);
  #recent: Buffer[] = [];
  #utterance: Buffer[] = [];
  #bytes = 0;
  #speaking = false;
  #loud = 0;
  #quiet = 0;

  constructor(private readonly listener: VadListener) {}

  push(pcm: Buffer): void {
    const data = this.#carry.length ? Buffer.concat([this.#carry, pcm]) : pcm;
    const frameBytes = FRAME_SAMPLES * 2;
    let offset = 0;
    for (; offset + frameBytes <= data.length; offset += frameBytes) this.#frame(data.subarray(offset, offset + frameBytes));
    // A copy: a view would keep the whole appended chunk alive for its last few bytes.
    this.#carry = Buffer.from(data.subarray(offset));
  }

  /** Ends the utterance under way now (the client committed), if any. */
  flush(): void {
    if (this.#speaking) this.#end();
  }

  #frame(frame: Buffer): void {
    const loud = rms(frame) >= LOUD_RMS;
    if (!this.#speaking) {
      this.#recent.push(frame);
      if (this.#recent.length > PAD_FRAMES + START_FRAMES) this.#recent.shift();
      this.#loud = loud ? this.#loud + 1 : 0;
      if (this.#loud < START_FRAMES) return;
      this.#speaking = true;
      this.#quiet = 0;
      this.#utterance = this.#recent.splice(0);
      this.#bytes = this.#utterance.reduce((sum, part) => sum + part.length, 0);
      return this.listener.started();
    }
    this.#utterance.push(frame);
    this.#bytes += frame.length;
    this.#quiet = loud ? 0 : this.#quiet + 1;
    if (this.#quiet >= END_FRAMES || this.#bytes >= UTTERANCE_MAX_BYTES) this.#end();
  }

  #end(): void {
    const utterance = Buffer.concat(this.#utterance);
    this.#utterance = [];
    this.#bytes = 0;
    this.#speaking = false;
    this.#loud = 0;
    this.listener.ended(utterance);
  }
}

function rms(frame: Buffer): number {
  let sum = 0;
  const samples = frame.length >> 1;
  for (let i = 0; i < samples; i++) {
    const sample = frame.readInt16LE(i * 2);
    sum += sample * sample;
  }
  return Math.sqrt(sum / samples);
}
