/**
 * Speech to text through OpenAI's realtime transcription WebSocket (`<OPENAI_BASE_URL host>/v1/realtime?intent=
 * transcription`), as Langflow does: the upstream cuts utterances (server VAD) and sends partials and finals. The
 * connection opens lazily and again after a failure, so one failed upstream costs one utterance, not the session.
 */
import WebSocket from 'ws';
import { openaiRealtimeUrl } from '../provider-urls.js';
import { UpstreamError, type SttProvider, type Transcriber, type TranscriptListener } from '../speech-port.js';

/** Langflow's transcription session: server VAD with its thresholds. */
const SESSION_UPDATE = JSON.stringify({
  type: 'transcription_session.update',
  session: {
    input_audio_format: 'pcm16',
    input_audio_transcription: { model: 'gpt-4o-transcribe' },
    turn_detection: { type: 'server_vad', threshold: 0.1, prefix_padding_ms: 100, silence_duration_ms: 300 },
  },
});

/**
 * Bytes of frames held for the upstream, while it connects or while it reads slower than audio comes: past it
 * audio is dropped (the oldest while connecting, the newest once connected), so a stalled upstream holds no more.
 */
const PENDING_MAX_BYTES = 2 << 20;

class RealtimeTranscriber implements Transcriber {
  #socket: WebSocket | undefined;
  #pending: string[] = [];
  #pendingBytes = 0;
  #closed = false;

  constructor(
    private readonly key: string,
    private readonly listener: TranscriptListener,
  ) {}

  append(pcm: Buffer): void {
    this.#send(JSON.stringify({ type: 'input_audio_buffer.append', audio: pcm.toString('base64') }));
  }

  commit(): void {
    this.#send('{"type":"input_audio_buffer.commit"}');
  }

  close(): void {
    this.#closed = true;
    this.#pending = [];
    this.#socket?.terminate();
    this.#socket = undefined;
  }

  #send(frame: string): void {
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

  #connect(): WebSocket {
    const socket = new WebSocket(openaiRealtimeUrl(), { headers: { authorization: `Bearer ${this.key}`, 'openai-beta': 'realtime=v1' }, maxPayload: 1 << 20 });
    this.#socket = socket;
    socket.on('open', () => {
      socket.send(SESSION_UPDATE);
      for (const frame of this.#pending.splice(0)) socket.send(frame);
      this.#pendingBytes = 0;
    });
    socket.on('message', (data) => this.#event(String(data)));
    const lost = (error: Error) => {
      if (this.#socket !== socket) return;
      this.#socket = undefined;
      this.#pending = [];
      this.#pendingBytes = 0;
      if (!this.#closed) this.listener.failed(error);
    };
    socket.on('unexpected-response', (req, res) => {
      req.destroy();
      lost(new UpstreamError(`the realtime transcription server answered ${res.statusCode}`));
    });
    socket.on('error', (error) => lost(new UpstreamError(`the realtime transcription connection failed: ${error.message}`)));
    socket.on('close', (code) => lost(new UpstreamError(`the realtime transcription connection closed (${code})`)));
    return socket;
  }

  #event(text: string): void {
    let event: { type?: unknown; item_id?: unknown; delta?: unknown; transcript?: unknown; error?: { message?: unknown } };
    try {
      event = JSON.parse(text);
    } catch {
      return;
    }
    const itemId = String(event.item_id ?? '');
    switch (event.type) {
      case 'input_audio_buffer.speech_started':
        return this.listener.speechStarted();
      case 'conversation.item.input_audio_transcription.delta':
        return this.listener.partial(itemId, String(event.delta ?? ''));
      case 'conversation.item.input_audio_transcription.completed':
        return this.listener.final(itemId, String(event.transcript ?? ''));
      case 'error':
        return this.listener.failed(new UpstreamError(String(event.error?.message ?? 'the realtime transcription server reported an error')));
    }
  }
}

export const openaiRealtimeTranscription: SttProvider = {
  open: (key, listener) => new RealtimeTranscriber(key, listener),
};
