/**
 * Local stand-ins for transcription: OpenAI-compatible `POST /v1/audio/transcriptions` (a WAV file in, `{text}`
 * out) and the realtime transcription WebSocket (`/v1/realtime?intent=transcription`), which cuts utterances
 * itself: loud audio starts one, the first quiet chunk after it (or a commit) ends it with the next scripted text.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { buffer } from 'node:stream/consumers';
import { WebSocketServer, type WebSocket } from 'ws';
import { rms } from './audio-tone.js';
import type { FakeRealtimeModel } from './fake-realtime-model.js';

export interface RealtimeConnection {
  headers: IncomingMessage['headers'];
  received: string[];
  closed: boolean;
}

export class FakeTranscription {
  /** Texts the next utterances are heard as; when empty, "hello there". */
  readonly script: string[] = [];
  readonly files: { bytes: number; isWav: boolean }[] = [];
  readonly realtime: RealtimeConnection[] = [];
  /** The next realtime utterance fails with an error event instead of a transcript. */
  failNext = false;
  #closes: (() => void)[] = [];

  nextRealtimeClose = () => new Promise<void>((resolve) => this.#closes.push(resolve));

  #heard(): string {
    return this.script.shift() ?? 'hello there';
  }

  serve = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'POST' || (req.url ?? '').split('?')[0] !== '/v1/audio/transcriptions') return false;
    void buffer(req).then((body) => {
      this.files.push({ bytes: body.length, isWav: body.includes('RIFF') && body.includes('WAVE') });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text: this.#heard() }));
    });
    return true;
  };

  #wss: WebSocketServer | undefined;
  /** Who answers realtime connections that ask for a model rather than transcription. */
  model: FakeRealtimeModel | undefined;

  /** Drops the realtime connections still open (the HTTP server's close does not wait for upgraded ones). */
  close(): void {
    this.#wss?.clients.forEach((ws) => ws.terminate());
  }

  attach = (http: Server): void => {
    const wss = new WebSocketServer({ noServer: true });
    this.#wss = wss;
    http.on('upgrade', (req, socket, head) => {
      const [path, query = ''] = (req.url ?? '').split('?');
      if (path !== '/v1/realtime') return socket.destroy();
      // The realtime voice model shares the path: `?model=` instead of `?intent=transcription`.
      const model = new URLSearchParams(query).has('model') ? this.model : undefined;
      wss.handleUpgrade(req, socket, head, (ws) => (model ? model.connection(ws, req) : this.#connection(ws, req)));
    });
  };

  #connection(ws: WebSocket, req: IncomingMessage): void {
    const connection: RealtimeConnection = { headers: req.headers, received: [], closed: false };
    this.realtime.push(connection);
    let item = 0;
    let speaking = false;
    const send = (event: object) => ws.send(JSON.stringify(event));
    const end = () => {
      speaking = false;
      const itemId = `item_${++item}`;
      send({ type: 'input_audio_buffer.speech_stopped', item_id: itemId });
      if (this.failNext) {
        this.failNext = false;
        return send({ type: 'error', error: { message: 'the fake upstream failed this utterance' } });
      }
      const transcript = this.#heard();
      send({ type: 'conversation.item.input_audio_transcription.delta', item_id: itemId, delta: transcript.split(' ')[0] });
      send({ type: 'conversation.item.input_audio_transcription.completed', item_id: itemId, transcript });
    };
    ws.on('message', (data) => {
      const event = JSON.parse(String(data));
      connection.received.push(event.type);
      if (event.type === 'input_audio_buffer.append') {
        const loud = rms(Buffer.from(event.audio, 'base64')) > 500;
        if (loud && !speaking) {
          speaking = true;
          send({ type: 'input_audio_buffer.speech_started', item_id: `item_${item + 1}` });
        } else if (!loud && speaking) end();
      } else if (event.type === 'input_audio_buffer.commit' && speaking) end();
    });
    ws.on('close', () => {
      connection.closed = true;
      this.#closes.splice(0).forEach((resolve) => resolve());
    });
  }
}
