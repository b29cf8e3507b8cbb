/**
 * Speech to text through OpenAI's realtime transcription WebSocket (`<OPENAI_BASE_URL host>/v1/realtime?intent=
 * transcription`), as Langflow does: the upstream cuts utterances (server VAD) and sends partials and finals.
 */
import { openaiRealtimeUrl } from '../provider-urls.js';
import { RealtimeLink } from '../realtime-link.js';
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

function transcriber(key: string, listener: TranscriptListener): Transcriber {
  const link = new RealtimeLink(openaiRealtimeUrl, key, {
    greeting: () => [SESSION_UPDATE],
    lost: (error) => listener.failed(error),
    event(event) {
      const itemId = String(event.item_id ?? '');
      switch (event.type) {
        case 'input_audio_buffer.speech_started':
          return listener.speechStarted();
        case 'conversation.item.input_audio_transcription.delta':
          return listener.partial(itemId, String(event.delta ?? ''));
        case 'conversation.item.input_audio_transcription.completed':
          return listener.final(itemId, String(event.transcript ?? ''));
        case 'error':
          return listener.failed(new UpstreamError(String((event.error as { message?: unknown } | undefined)?.message ?? 'the realtime transcription server reported an error')));
      }
    },
  });
  return {
    append: (pcm) => link.send(JSON.stringify({ type: 'input_audio_buffer.append', audio: pcm.toString('base64') })),
    commit: () => link.send('{"type":"input_audio_buffer.commit"}'),
    close: () => link.close(),
  };
}

export const openaiRealtimeTranscription: SttProvider = { open: transcriber };
