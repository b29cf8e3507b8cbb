/**
 * The voice WebSocket's frames (Langflow's flow_tts protocol, OpenAI's realtime event names): JSON text both ways.
 * Client frames are validated here; server frames are typed here and built in src/langflow/voice-events.ts.
 */
import { z } from 'zod';

/** Base64 characters in one audio frame: about 16 s of 24 kHz PCM16. Past it the frame is refused, not decoded. */
export const AUDIO_FRAME_MAX_CHARS = 1_000_000;
/** The socket's frame limit: above the largest valid frame, so an oversized audio frame gets an error event first. */
export const VOICE_FRAME_MAX_BYTES = 2 * 1024 * 1024;

export const SttProviderName = z.enum(['openai-realtime', 'openai-transcriptions']);
export type SttProviderName = z.infer<typeof SttProviderName>;
export const TtsProviderName = z.enum(['openai', 'elevenlabs']);
export type TtsProviderName = z.infer<typeof TtsProviderName>;

const VoiceName = z.string().min(1).max(200);

export const ClientFrame = z.discriminatedUnion('type', [
  z.object({ type: z.literal('input_audio_buffer.append'), audio: z.string().max(AUDIO_FRAME_MAX_CHARS, `audio must be at most ${AUDIO_FRAME_MAX_CHARS} base64 characters`) }),
  z.object({ type: z.literal('input_audio_buffer.commit') }),
  /** The user's voice and, beyond Langflow, the providers of this session. */
  z.object({ type: z.literal('voice.settings'), voice: VoiceName.optional(), stt: SttProviderName.optional(), tts: TtsProviderName.optional() }),
  z.object({ type: z.literal('langflow.elevenlabs.config'), enabled: z.boolean(), voice_id: VoiceName.optional() }),
  /** Ours: credentials as the first frame, for clients that cannot put them on the upgrade request (browsers). */
  z.object({ type: z.literal('voice.auth'), api_key: z.string().max(1000).optional(), token: z.string().max(8000).optional() }),
]);
export type ClientFrame = z.infer<typeof ClientFrame>;

export const ResponseStatus = z.enum(['completed', 'cancelled', 'failed']);
export type ResponseStatus = z.infer<typeof ResponseStatus>;

/** Why an error event was sent; the socket stays open unless the event says the session cannot go on. */
export const VoiceErrorCode = z.enum(['invalid_path', 'langflow_auth', 'flow_not_found', 'api_key_missing', 'invalid_frame', 'stt_failed', 'tts_failed', 'flow_failed', 'realtime_failed']);
export type VoiceErrorCode = z.infer<typeof VoiceErrorCode>;

export const ServerFrame = z.discriminatedUnion('type', [
  z.object({ type: z.literal('error'), code: VoiceErrorCode, message: z.string(), key_name: z.string().optional() }),
  z.object({ type: z.literal('input_audio_buffer.speech_started') }),
  z.object({ type: z.literal('conversation.item.input_audio_transcription.delta'), item_id: z.string(), delta: z.string() }),
  z.object({ type: z.literal('conversation.item.input_audio_transcription.completed'), item_id: z.string(), transcript: z.string() }),
  /** One event of the run behind the answer, as Langflow's run stream frames it (`{event, data}`). */
  z.object({ type: z.literal('flow.build.progress'), data: z.object({ event: z.string(), data: z.unknown() }) }),
  /** Base64 PCM16, mono, 24 kHz. */
  z.object({ type: z.literal('response.audio.delta'), response_id: z.string(), delta: z.string() }),
  z.object({ type: z.literal('response.audio.done'), response_id: z.string() }),
  z.object({ type: z.literal('response.done'), response: z.object({ id: z.string(), status: ResponseStatus }) }),
]);
export type ServerFrame = z.infer<typeof ServerFrame>;

export const ElevenLabsVoices = z.array(z.object({ voice_id: z.string(), name: z.string() }));
