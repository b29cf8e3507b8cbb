/**
 * A local stand-in for speech servers: OpenAI's `POST /v1/audio/speech` (response_format pcm) and ElevenLabs'
 * `POST /v1/text-to-speech/{voice}/stream` and `GET /v1/voices`. Audio streams as 20 ms PCM chunks of a tone,
 * a few per sentence, `chunkDelayMs` apart. Every request is recorded, with whether the client dropped it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { text } from 'node:stream/consumers';
import { tone } from './audio-tone.js';

export interface SpeechRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
  /** performance.now() when the request arrived and when its first audio byte was written. */
  arrivedAt: number;
  firstByteAt?: number;
  aborted: boolean;
  finished: boolean;
}

export class FakeSpeech {
  readonly requests: SpeechRequest[] = [];
  chunkDelayMs = 0;
  chunksPerSentence = 4;
  /** The next speech request fails with a 500. */
  failNext = false;
  #arrivals: ((request: SpeechRequest) => void)[] = [];
  #aborts: ((request: SpeechRequest) => void)[] = [];

  nextRequest = () => new Promise<SpeechRequest>((resolve) => this.#arrivals.push(resolve));
  nextAbort = () => new Promise<SpeechRequest>((resolve) => this.#aborts.push(resolve));

  /** The model server's `serve` hook: true when the request was one of these paths. */
  serve = (req: IncomingMessage, res: ServerResponse): boolean => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/v1/voices') {
      const ok = req.headers['xi-api-key'] === 'el-key';
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' }).end(JSON.stringify(ok ? { voices: [{ voice_id: 'voice-1', name: 'Rachel', category: 'premade' }] } : { detail: 'invalid key' }));
      return true;
    }
    if (req.method !== 'POST' || !(path === '/v1/audio/speech' || /^\/v1\/text-to-speech\/[^/]+\/stream$/.test(path))) return false;
    void this.#speak(req, res, path);
    return true;
  };

  async #speak(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const request: SpeechRequest = { path, headers: req.headers, body: JSON.parse(await text(req)), arrivedAt: performance.now(), aborted: false, finished: false };
    this.requests.push(request);
    this.#arrivals.splice(0).forEach((resolve) => resolve(request));
    res.on('close', () => {
      if (request.finished) return;
      request.aborted = true;
      this.#aborts.splice(0).forEach((resolve) => resolve(request));
    });
    if (this.failNext) {
      this.failNext = false;
      request.finished = true;
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"the fake speech server failed"}}');
      return;
    }
    res.writeHead(200, { 'content-type': 'audio/pcm' });
    for (let i = 0; i < this.chunksPerSentence && !request.aborted; i++) {
      if (i > 0 || this.chunkDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.chunkDelayMs));
      if (request.aborted) return;
      res.write(tone(20, 330));
      request.firstByteAt ??= performance.now();
    }
    request.finished = true;
    res.end();
  }
}
