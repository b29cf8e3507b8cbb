/**
 * One connection to an OpenAI realtime WebSocket (transcription or a voice model), opened lazily on the first
 * frame and again after a failure, so a failed upstream costs one utterance, not the session. Frames wait while
 * it connects, and go while it reads them, up to a bound: past it audio is dropped (the oldest while connecting,
 * the newest once connected), so a stalled upstream holds no more.
 */
import WebSocket from 'ws';
import { UpstreamError } from './speech-port.js';

const PENDING_MAX_BYTES = 2 << 20;

export interface RealtimeLinkEvents {
  /** The first frames of each connection (its session configuration). */
  greeting(): string[];
  event(event: Record<string, unknown>): void;
  lost(error: UpstreamError): void;
}

export class RealtimeLink {
  #socket: WebSocket | undefined;
  #pending: string[] = [];
  #pendingBytes = 0;
  #closed = false;

  constructor(
    private readonly url: () => string,
    private readonly key: string,
    private readonly events: RealtimeLinkEvents,
  ) {}

  send(frame: string): void {
    if (this.#closed) return;
    const socket = this.#socket ?? this.#connect();
    if (socket.readyState === WebSocket.OPEN) {
      if (socket.bufferedAmount + frame.length <= PENDING_MAX_BYTES) socket.send(frame);
      return;
    }
    this.#pending.push(frame);
    this.#pendingBytes += frame.length;
    while (this.#pendingBytes > PENDING_MAX_BYTES && this.#pending.length > 1) this.#pendingBytes -= this.#pending.shift()!.length;
  }

  /** Stops reading the upstream (its events wait in TCP) while the client cannot take them. */
  pause(): void {
    this.#socket?.pause();
  }

  resume(): void {
    this.#socket?.resume();
  }

  close(): void {
    this.#closed = true;
    this.#forget();
    this.#socket?.terminate();
    this.#socket = undefined;
  }

  #forget(): void {
    this.#pending = [];
    this.#pendingBytes = 0;
  }

  #connect(): WebSocket {
    const socket = new WebSocket(this.url(), { headers: { authorization: `Bearer ${this.key}`, 'openai-beta': 'realtime=v1' }, maxPayload: 4 << 20 });
    this.#socket = socket;
    socket.on('open', () => {
      for (const frame of [...this.events.greeting(), ...this.#pending]) socket.send(frame);
      this.#forget();
    });
    socket.on('message', (data) => {
      let event: unknown;
      try {
        event = JSON.parse(String(data));
      } catch {
        return;
      }
      if (event && typeof event === 'object') this.events.event(event as Record<string, unknown>);
    });
    const lost = (error: UpstreamError) => {
      if (this.#socket !== socket) return;
      this.#socket = undefined;
      this.#forget();
      if (!this.#closed) this.events.lost(error);
    };
    socket.on('unexpected-response', (req, res) => {
      req.destroy();
      lost(new UpstreamError(`the realtime server answered ${res.statusCode}`));
    });
    socket.on('error', (error) => lost(new UpstreamError(`the realtime connection failed: ${error.message}`)));
    socket.on('close', (code) => lost(new UpstreamError(`the realtime connection closed (${code})`)));
    return socket;
  }
}
